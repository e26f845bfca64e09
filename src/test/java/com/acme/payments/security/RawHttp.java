package com.acme.payments.security;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, one request per connection. Unlike {@code java.net.http} it sends any
 * request target and header bytes as given (raw {@code ..}, {@code %2e%2e}, {@code %2F}, invalid percent
 * escapes, 10 KB segments), which is the point of a hostile-input test.
 */
final class RawHttp {

    private final int port;

    RawHttp(int port) {
        this.port = port;
    }

    record Response(int status, Map<String, String> headers, String body) {
        String contentType() {
            return headers.getOrDefault("content-type", "");
        }
    }

    Response send(String method, String target, Map<String, String> headers, byte[] body) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            StringBuilder head = new StringBuilder();
            head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
            head.append("Host: localhost:").append(port).append("\r\n");
            head.append("Connection: close\r\n");
            // a Content-Type given is sent as given, an empty one not at all; the default is JSON
            boolean typed = headers.keySet().stream().anyMatch("Content-Type"::equalsIgnoreCase);
            headers.forEach((name, value) -> {
                if (!value.isEmpty() || !name.equalsIgnoreCase("Content-Type")) {
                    head.append(name).append(": ").append(value).append("\r\n");
                }
            });
            if (body != null) {
                if (!typed) {
                    head.append("Content-Type: application/json\r\n");
                }
                head.append("Content-Length: ").append(body.length).append("\r\n");
            } else if (method.equals("POST")) {
                head.append("Content-Length: 0\r\n");
            }
            head.append("\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.UTF_8));
            if (body != null) {
                try {
                    out.write(body);
                } catch (IOException refusedEarly) {
                    // a server may answer (413) and close before reading a large body; read its answer
                }
            }
            out.flush();
            return read(socket.getInputStream());
        } catch (IOException e) {
            throw new IllegalStateException("no answer for " + method + " " + abbreviate(target) + ": " + e, e);
        }
    }

    static String abbreviate(String s) {
        return s.length() <= 120 ? s : s.substring(0, 120) + "…(" + s.length() + " chars)";
    }

    private static Response read(InputStream in) throws IOException {
        byte[] all = in.readAllBytes();
        int end = indexOf(all, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        if (end < 0) {
            throw new IOException("no complete response head: " + all.length + " bytes");
        }
        String[] lines = new String(all, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        byte[] rest = java.util.Arrays.copyOfRange(all, end + 4, all.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            rest = dechunk(rest);
        }
        return new Response(status, headers, new String(rest, StandardCharsets.UTF_8));
    }

    private static byte[] dechunk(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int pos = 0;
        while (pos < data.length) {
            int lineEnd = indexOf(java.util.Arrays.copyOfRange(data, pos, data.length), "\r\n".getBytes(StandardCharsets.US_ASCII));
            if (lineEnd < 0) {
                break;
            }
            String sizeLine = new String(data, pos, lineEnd, StandardCharsets.US_ASCII).split(";")[0].trim();
            int size = Integer.parseInt(sizeLine, 16);
            pos += lineEnd + 2;
            if (size == 0) {
                break;
            }
            out.write(data, pos, Math.min(size, data.length - pos));
            pos += size + 2;
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] data, byte[] needle) {
        outer:
        for (int i = 0; i <= data.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (data[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
