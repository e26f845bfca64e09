package com.acme.payments;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;

import com.acme.pspsim.PspSimulatorApplication;

/**
 * The service's classes hold the service only: the PSP simulator is a test fixture
 * ({@code src/test/java/com/acme/pspsim}), for the tests and the development launcher. The simulator checks
 * the other direction ({@code SimulatorBoundaryTests}); JarManifestIT checks both shipped jars.
 */
class ModuleBoundaryTests {

    /** The compiled production classes: the main output directory, not the test class path (which has the simulator). */
    private static final JavaClasses SERVICE = new ClassFileImporter().importPath(Path.of("target", "classes"));

    @Test
    void theServiceClassesHoldOnlyTheService() {
        classes().should().resideInAPackage("com.acme.payments..").check(SERVICE);
    }

    @Test
    void theServiceUsesNothingOfTheSimulator() {
        noClasses().should().dependOnClassesThat().resideInAPackage("com.acme.pspsim..").check(SERVICE);
    }

    @Test
    void theSimulatorBesideTheServiceSeesNothingOfIt() {
        // the development launcher's situation: one class path with both, the service's application.yml on it
        try (ConfigurableApplicationContext sim = PspSimulatorApplication.start(0, Map.of())) {
            assertThat(sim.getEnvironment().getProperty("payments.psp.read-timeout"))
                    .as("application.yml is not read").isNull();
            assertThat(sim.getBeanNamesForType(DataSource.class)).isEmpty();
            assertThat(sim.getBeanNamesForType(PaymentsApplication.class)).as("the service is not scanned").isEmpty();
        }
    }
}
