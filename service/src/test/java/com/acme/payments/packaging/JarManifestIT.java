package com.acme.payments.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;

/**
 * The packaged jars' manifests name classes the jars contain (issue 11: the service's once named the
 * development launcher from {@code src/test}, which no jar has), and each jar holds its own module only
 * (issue 22: the simulator left the service's jar). Cheap and exact; {@link PackagedJarIT} proves the same by
 * starting them.
 */
class JarManifestIT {

    @Test
    void startClassIsTheServiceAndIsInsideTheJar() throws Exception {
        try (JarFile jar = new JarFile(PackagedJar.jar().toFile())) {
            Manifest manifest = jar.getManifest();
            String startClass = manifest.getMainAttributes().getValue("Start-Class");
            assertThat(manifest.getMainAttributes().getValue("Main-Class"))
                    .isEqualTo("org.springframework.boot.loader.launch.JarLauncher");
            assertThat(startClass).isEqualTo("com.acme.payments.PaymentsApplication");
            assertThat(jar.getEntry("BOOT-INF/classes/" + startClass.replace('.', '/') + ".class"))
                    .as("Start-Class " + startClass + " inside the jar").isNotNull();
            assertThat(jar.getEntry("BOOT-INF/classes/com/acme/payments/TestPaymentsApplication.class"))
                    .as("no development launcher in the jar").isNull();
        }
    }

    @Test
    void theServiceJarHoldsNothingOfTheSimulator() throws Exception {
        try (JarFile jar = new JarFile(PackagedJar.jar().toFile())) {
            assertThat(names(jar)).as("the service's jar: its classes and libraries")
                    .noneMatch(name -> name.contains("com/acme/pspsim") || name.startsWith("BOOT-INF/lib/pspsim-")
                            || name.equals("BOOT-INF/classes/pspsim.yml"));
        }
    }

    @Test
    void theSimulatorJarStartsTheSimulatorAndHoldsNothingOfTheService() throws Exception {
        try (JarFile jar = new JarFile(PackagedJar.simulatorJar().toFile())) {
            String startClass = jar.getManifest().getMainAttributes().getValue("Start-Class");
            assertThat(startClass).isEqualTo("com.acme.pspsim.PspSimulatorApplication");
            assertThat(jar.getEntry("BOOT-INF/classes/" + startClass.replace('.', '/') + ".class"))
                    .as("Start-Class " + startClass + " inside the simulator's jar").isNotNull();
            assertThat(names(jar)).as("the simulator's jar: its classes and libraries")
                    .noneMatch(name -> name.contains("com/acme/payments") || name.startsWith("BOOT-INF/lib/payments-")
                            || name.startsWith("BOOT-INF/classes/db/") || name.equals("BOOT-INF/classes/application.yml"));
        }
    }

    /** The jar's files (no directory entries: an empty package left by a stale build carries nothing). */
    private static List<String> names(JarFile jar) {
        return Collections.list(jar.entries()).stream().filter(entry -> !entry.isDirectory()).map(JarEntry::getName)
                .toList();
    }
}
