package com.acme.pspsim;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;

/**
 * The simulator module holds the simulator only (issue 22 item 4): nothing of the payments service, so it
 * builds, tests and ships without it. The service module checks the other direction.
 */
class ModuleBoundaryTests {

    /** This module's compiled production classes (its output directory). */
    private static final JavaClasses SIMULATOR = new ClassFileImporter().importPath(Path.of("target", "classes"));

    @Test
    void theSimulatorModuleHoldsOnlyTheSimulator() {
        classes().should().resideInAPackage("com.acme.pspsim..").check(SIMULATOR);
    }

    @Test
    void theSimulatorUsesNothingOfTheService() {
        noClasses().should().dependOnClassesThat().resideInAPackage("com.acme.payments..").check(SIMULATOR);
    }
}
