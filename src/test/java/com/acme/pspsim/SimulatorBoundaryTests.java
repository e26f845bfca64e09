package com.acme.pspsim;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;

/**
 * The simulator is a test fixture that uses nothing of the payments service, so its own jar (built from
 * the test classes of this package) runs without it. The service's {@code ModuleBoundaryTests} checks the
 * other direction; {@code JarManifestIT} checks both shipped jars.
 */
class SimulatorBoundaryTests {

    /** The simulator's compiled classes, its own tests included: this package of the test output directory. */
    private static final JavaClasses SIMULATOR = new ClassFileImporter()
            .importPath(Path.of("target", "test-classes", "com", "acme", "pspsim"));

    @Test
    void theSimulatorsPackageHoldsOnlyTheSimulator() {
        classes().should().resideInAPackage("com.acme.pspsim..").check(SIMULATOR);
    }

    @Test
    void theSimulatorUsesNothingOfTheService() {
        noClasses().should().dependOnClassesThat().resideInAPackage("com.acme.payments..").check(SIMULATOR);
    }
}
