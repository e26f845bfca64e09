package com.acme.payments.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;

/**
 * The packaged jars' manifests name classes the jars contain (the service's must not name the development
 * launcher from {@code src/test}, which no jar has), and each jar holds its own classes only: the service's
 * jar no simulator class, the simulator's jar (built from the test classes) no service class and no test.
 * Cheap and exact; {@link PackagedJarIT} proves the same by starting them.
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
            String mainClass = jar.getManifest().getMainAttributes().getValue("Main-Class");
            assertThat(mainClass).isEqualTo("com.acme.pspsim.PspSimulatorApplication");
            assertThat(jar.getEntry(mainClass.replace('.', '/') + ".class"))
                    .as("Main-Class " + mainClass + " inside the simulator's jar").isNotNull();
            assertThat(names(jar)).as("the simulator's jar: its own classes and configuration only")
                    .noneMatch(name -> name.contains("com/acme/payments") || name.startsWith("db/")
                            || name.equals("application.yml") || name.endsWith("Tests.class"));
            String classPath = jar.getManifest().getMainAttributes().getValue("Class-Path");
            assertThat(classPath).as("its libraries, copied beside it").contains("pspsim-lib/spring-webmvc-");
            for (String entry : classPath.trim().split("\\s+")) {
                assertThat(PackagedJar.simulatorJar().resolveSibling(entry)).as("Class-Path entry " + entry).exists();
            }
        }
    }

    /** The jar's files (no directory entries: an empty package left by a stale build carries nothing). */
    private static List<String> names(JarFile jar) {
        return Collections.list(jar.entries()).stream().filter(entry -> !entry.isDirectory()).map(JarEntry::getName)
                .toList();
    }
}
