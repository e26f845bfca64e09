package com.acme.payments.support;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Asks a Docker engine {@code GET /_ping} before anything touches Testcontainers, which logs an ERROR
 * block with a stack trace for every strategy it tries when no engine answers. Silent: it only answers
 * whether an engine is there. Looks where Testcontainers would: {@code DOCKER_HOST}, the
 * {@code docker.host} of {@code ~/.testcontainers.properties}, then the usual socket paths.
 */
public final class DockerProbe {

    private static final int TIMEOUT_MILLIS = 1000;

    private DockerProbe() {
    }

    /** True when some Docker engine answers its ping. */
    public static boolean engineAnswers() {
        return candidates(System.getenv("DOCKER_HOST"), Path.of(System.getProperty("user.home", "/root"))).stream()
                .anyMatch(DockerProbe::pings);
    }

    /** Where to look, in Testcontainers' order; {@code dockerHost} as the variable would have it. */
    static List<String> candidates(String dockerHost, Path home) {
        List<String> hosts = new ArrayList<>();
        if (dockerHost != null && !dockerHost.isBlank()) {
            hosts.add(dockerHost.strip());
        }
        Path properties = home.resolve(".testcontainers.properties");
        if (Files.isReadable(properties)) {
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(properties)) {
                p.load(in);
            } catch (IOException unreadable) {
                // as if absent
            }
            if (p.getProperty("docker.host") != null) {
                hosts.add(p.getProperty("docker.host").strip());
            }
        }
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        for (Path socket : List.of(Path.of("/var/run/docker.sock"), home.resolve(".docker/run/docker.sock"),
                home.resolve(".docker/desktop/docker.sock"), home.resolve(".colima/default/docker.sock"),
                home.resolve(".rd/docker.sock"), Path.of(runtime == null ? "/nonexistent" : runtime, "docker.sock"),
                Path.of("/run/user/0/podman/podman.sock"))) {
            if (Files.exists(socket)) {
                hosts.add("unix://" + socket);
            }
        }
        return hosts;
    }

    /** {@code unix:///path} or {@code tcp://host:port}: does {@code GET /_ping} answer 200? */
    static boolean pings(String host) {
        ExecutorService one = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "docker-probe");
            t.setDaemon(true);
            return t;
        });
        try {
            Future<Boolean> answer = one.submit(() -> ping(host));
            return answer.get(TIMEOUT_MILLIS * 2L, TimeUnit.MILLISECONDS);
        } catch (Exception noEngine) {
            return false;
        } finally {
            one.shutdownNow();
        }
    }

    private static boolean ping(String host) throws IOException {
        byte[] request = "GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        if (host.startsWith("unix://")) {
            SocketAddress address = UnixDomainSocketAddress.of(host.substring("unix://".length()));
            try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                channel.connect(address);
                channel.write(ByteBuffer.wrap(request));
                ByteBuffer buffer = ByteBuffer.allocate(64);
                channel.read(buffer);
                return isOk(new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII));
            }
        }
        if (host.startsWith("tcp://") && System.getenv("DOCKER_TLS_VERIFY") != null) {
            return true; // a TLS engine: leave the handshake to Testcontainers
        }
        if (host.startsWith("tcp://")) {
            URI uri = URI.create(host);
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort() < 0 ? 2375 : uri.getPort()),
                        TIMEOUT_MILLIS);
                socket.setSoTimeout(TIMEOUT_MILLIS);
                socket.getOutputStream().write(request);
                byte[] head = socket.getInputStream().readNBytes(64);
                return isOk(new String(head, StandardCharsets.US_ASCII));
            }
        }
        return false; // npipe:// and the like: not on this kind of machine
    }

    private static boolean isOk(String head) {
        return head.startsWith("HTTP/1.") && head.length() >= 12 && head.substring(9, 12).equals("200");
    }
}
