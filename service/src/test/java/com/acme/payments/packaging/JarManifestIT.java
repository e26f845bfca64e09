package com.acme.payments.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.jar.JarFile;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;

/**
 * The packaged jar's manifest names classes the jar contains (issue 11: it once named the development
 * launcher from {@code src/test}, which no jar has). Cheap and exact; {@link PackagedJarIT} proves the
 * same by starting it.
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
            assertThat(jar.getEntry("BOOT-INF/classes/" + PackagedJar.SIMULATOR_MAIN.replace('.', '/') + ".class"))
                    .as("the simulator's main class (loader.main) inside the jar").isNotNull();
            assertThat(jar.getEntry("BOOT-INF/classes/com/acme/payments/TestPaymentsApplication.class"))
                    .as("no development launcher in the jar").isNull();
        }
    }
}
