package com.acme.payments.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The quiet engine check the development launcher and the tests make before Testcontainers. */
class DockerProbeTests {

    @TempDir
    Path dir;

    @Test
    void noSocketAndNoDockerHostMeansNoEngine() {
        assertThat(DockerProbe.pings("unix://" + dir.resolve("absent.sock"))).isFalse();
        assertThat(DockerProbe.pings("tcp://127.0.0.1:9")).isFalse();
        assertThat(DockerProbe.candidates(null, dir)).doesNotContain("unix://" + dir.resolve(".docker/run/docker.sock"));
    }

    @Test
    void aSocketThatAnswersThePingIsAnEngineAndOneThatAnswersSomethingElseIsNot() throws Exception {
        assertThat(serveOnce("HTTP/1.1 200 OK\r\nApi-Version: 1.47\r\nContent-Length: 2\r\n\r\nOK")).isTrue();
        assertThat(serveOnce("HTTP/1.1 404 Not Found\r\n\r\n")).isFalse();
    }

    @Test
    void dockerHostAndTestcontainersPropertiesComeFirst() throws Exception {
        Files.writeString(dir.resolve(".testcontainers.properties"), "docker.host=tcp://10.0.0.1:2375\n");
        assertThat(DockerProbe.candidates("unix:///custom/docker.sock", dir))
                .startsWith("unix:///custom/docker.sock", "tcp://10.0.0.1:2375");
    }

    private boolean serveOnce(String answer) throws Exception {
        Path socket = dir.resolve("engine-" + System.nanoTime() + ".sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            Thread engine = new Thread(() -> {
                try (SocketChannel client = server.accept()) {
                    client.read(ByteBuffer.allocate(256));
                    client.write(ByteBuffer.wrap(answer.getBytes(StandardCharsets.US_ASCII)));
                } catch (Exception closed) {
                    // the probe gave up
                }
            });
            engine.start();
            boolean pinged = DockerProbe.pings("unix://" + socket);
            engine.join(5000);
            return pinged;
        }
    }
}
