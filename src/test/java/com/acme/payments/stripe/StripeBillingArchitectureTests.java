package com.acme.payments.stripe;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The shape of the Stripe and billing packages: no cycle, SQL only in Stores, no transactional Orchestrator. */
@AnalyzeClasses(packages = "com.acme.payments", importOptions = ImportOption.DoNotIncludeTests.class)
class StripeBillingArchitectureTests {

    private static final String[] AREA = { "com.acme.payments.stripe..", "com.acme.payments.billing.." };

    @ArchTest
    static final ArchRule stripeNeverDependsOnBilling = noClasses().that()
            .resideInAPackage("com.acme.payments.stripe..").should().dependOnClassesThat()
            .resideInAPackage("com.acme.payments.billing..");

    @ArchTest
    static final ArchRule onlyStoresTouchJdbc = noClasses().that().resideInAnyPackage(AREA)
            .and().haveSimpleNameNotEndingWith("Store")
            .should().dependOnClassesThat().areAssignableTo(JdbcClient.class);

    @ArchTest
    static final ArchRule storesAreTransactional = classes().that().resideInAnyPackage(AREA)
            .and().haveSimpleNameEndingWith("Store").should().beAnnotatedWith(Transactional.class);

    @ArchTest
    static final ArchRule orchestratorsAreNeverTransactional = noClasses().that().resideInAnyPackage(AREA)
            .and().haveSimpleNameEndingWith("Orchestrator").should().beAnnotatedWith(Transactional.class)
            .orShould().dependOnClassesThat().areAssignableTo(JdbcClient.class);
}
