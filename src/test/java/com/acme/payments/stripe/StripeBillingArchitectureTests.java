package com.acme.payments.stripe;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The shape of the Stripe and billing packages: no cycle, SQL only in Stores, no transactional
 * Orchestrator, only Stores and Appliers transactional, and no transactional class next to a Stripe
 * API client (a network call never holds a transaction open).
 */
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

    @ArchTest
    static final ArchRule onlyStoresAndAppliersAreTransactional = noClasses().that().resideInAnyPackage(AREA)
            .and().haveSimpleNameNotEndingWith("Store").and().haveSimpleNameNotEndingWith("Applier")
            .should().beAnnotatedWith(Transactional.class);

    @ArchTest
    static final ArchRule onlyStoreAndApplierMethodsAreTransactional = noMethods().that().areDeclaredInClassesThat()
            .resideInAnyPackage(AREA).and().areDeclaredInClassesThat().haveSimpleNameNotEndingWith("Store")
            .and().areDeclaredInClassesThat().haveSimpleNameNotEndingWith("Applier")
            .should().beAnnotatedWith(Transactional.class);

    @ArchTest
    static final ArchRule noTransactionalClassDependsOnAClient = noClasses().that().resideInAnyPackage(AREA)
            .and(transactional())
            .should().dependOnClassesThat(ourClients());

    /** Annotated on the class or on any of its methods. */
    private static DescribedPredicate<JavaClass> transactional() {
        return DescribedPredicate.describe("are @Transactional (class or method)",
                c -> c.isAnnotatedWith(Transactional.class)
                        || c.getMethods().stream().anyMatch(m -> m.isAnnotatedWith(Transactional.class)));
    }

    /** The service's own API clients ({@code StripeApiClient}, {@code GatewayClient}); JdbcClient is the database. */
    private static DescribedPredicate<JavaClass> ourClients() {
        return DescribedPredicate.describe("are an external API's *Client",
                c -> c.getPackageName().startsWith("com.acme.payments") && c.getSimpleName().endsWith("Client"));
    }
}
