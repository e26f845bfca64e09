package com.acme.payments;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.RequestMapping;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.domain.properties.HasOwner;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

import com.acme.payments.common.web.Allow;
import com.acme.payments.common.web.ApiProblem;
import com.acme.payments.psp.PaymentUpdateHandler;
import com.acme.payments.psp.PspPayment;
import com.acme.payments.common.web.Public;
import com.acme.payments.sweep.Backoff;
import com.acme.payments.sweep.JobMetrics;
import com.acme.payments.sweep.Outcome;
import com.acme.payments.sweep.Poll;
import com.acme.payments.sweep.Poller;
import com.acme.payments.sweep.Resolver;
import com.acme.payments.sweep.Schedules;
import com.acme.payments.sweep.Shutdown;
import com.acme.payments.sweep.StragglerProperties;
import com.acme.payments.sweep.SweepLoop;
import com.acme.payments.sweep.SweepProperties;
import com.acme.payments.sweep.SweptTable;

/** The layout rules of README.md ("Project layout") and docs/architecture.md, checked so they stay true. */
class ArchitectureTests {

    static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("com.acme.payments");

    @Test
    void featurePackagesHaveNoCyclesAndUseOnlyEachOthersApi() {
        // common is shared plumbing (problems, credentials, money), used by every feature by design
        DescribedPredicate<JavaClass> common = JavaClass.Predicates.resideInAPackage("com.acme.payments.common..");
        ApplicationModules.of(PaymentsApplication.class, common).verify();
    }

    /**
     * The provider seam: the order speaks its own outcomes ({@code PaymentReport}); each provider maps its
     * states into them on its side, so the arrow runs provider → order and never back.
     */
    @Test
    void orderDependsOnNoProvider() {
        noClasses().that().resideInAPackage("com.acme.payments.order..").should().dependOnClassesThat()
                .resideInAnyPackage("com.acme.payments.psp..", "com.acme.payments.stripe..").check(MAIN);
    }

    @Test
    void orchestratorsAreNeverTransactional() {
        noClasses().that().haveSimpleNameEndingWith("Orchestrator").should().beAnnotatedWith(Transactional.class)
                .check(MAIN);
        methods().that().areDeclaredInClassesThat().haveSimpleNameEndingWith("Orchestrator")
                .should().notBeAnnotatedWith(Transactional.class).check(MAIN);
    }

    @Test
    void everyStoreIsTransactional() {
        classes().that().haveSimpleNameEndingWith("Store").should().beAnnotatedWith(Transactional.class).check(MAIN);
    }

    @Test
    void onlyStoresTouchJdbcClient() {
        noClasses().that().haveSimpleNameNotEndingWith("Store").should().dependOnClassesThat()
                .areAssignableTo(JdbcClient.class).check(MAIN);
    }

    /**
     * Convention 3: a Store holds SQL and the meaning of row counts; the business rules that answer an API
     * problem (refund key reused, exceeds remainder, …) belong to Appliers and orchestrators.
     */
    @Test
    void noStoreDependsOnAnApiProblem() {
        noClasses().that().haveSimpleNameEndingWith("Store").should().dependOnClassesThat()
                .areAssignableTo(ApiProblem.class).check(MAIN);
    }

    /**
     * The sweep is one framework (docs/architecture.md): only {@code com.acme.payments.sweep} ages and claims a
     * swept table and schedules its sweep on {@code payments.sweep.*}; a flow implements
     * {@code SweptTable} (its Store) and {@code Resolver} (its orchestrator) and wires nothing itself.
     */
    @Test
    void onlyTheSweepPackageSweeps() {
        noClasses().that().resideOutsideOfPackage("com.acme.payments.sweep..")
                .should().callMethodWhere(JavaCall.Predicates.target(HasName.Predicates.nameMatching("ageInFlight|claimUnknown"))
                        .and(JavaCall.Predicates.target(HasOwner.Predicates.With.owner(
                                JavaClass.Predicates.assignableTo(SweptTable.class)))))
                .because("a flow's sweep is registered by Sweeps from its Resolver, not wired by hand")
                .check(MAIN);
    }

    /**
     * A poll is a sweep without ageing (docs/architecture.md): a flow declares its {@code PollJob}s (its
     * orchestrator is a {@code Poller}) and {@code Polls} alone builds and schedules them, on
     * {@code payments.stragglers.*} or {@code payments.sweep.*} as the job names; no feature class wires a
     * {@link Poll} or schedules on either setting. And a flow package (one that holds a {@code Resolver} or
     * a {@code Poller}) schedules no job of its own: its only {@code SchedulingConfigurer} may be a gauge
     * refresh ({@code Schedules.fixedDelay}), never a guarded job with the sweep's kit (back-off, shutdown,
     * loop, job meters) nor a task added to the registrar by hand.
     */
    @Test
    void onlyTheSweepPackageSchedulesAPoll() {
        noClasses().that().resideOutsideOfPackage("com.acme.payments.sweep..")
                .and().areAssignableTo(SchedulingConfigurer.class)
                .should().dependOnClassesThat().belongToAnyOf(Poll.class, StragglerProperties.class,
                        SweepProperties.class)
                .because("a flow's poll or sweep is registered by Polls or Sweeps, not wired by hand")
                .check(MAIN);
        noClasses().that().resideOutsideOfPackage("com.acme.payments.sweep..")
                .should().dependOnClassesThat().belongToAnyOf(Poll.class)
                .because("a flow's poll is registered by Polls from its Poller, not wired by hand")
                .check(MAIN);
        String[] flows = flowPackages();
        assertThat(flows).as("flow packages").contains("com.acme.payments.checkout", "com.acme.payments.refund",
                "com.acme.payments.secondcharge");
        noClasses().that().resideInAnyPackage(flows).and().areAssignableTo(SchedulingConfigurer.class)
                .should().callMethod(Schedules.class, "guarded", ScheduledTaskRegistrar.class, boolean.class,
                        Duration.class, Duration.class, Backoff.class, Shutdown.class, Object.class, String.class)
                .orShould().callMethodWhere(JavaCall.Predicates.target(HasName.Predicates.nameStartingWith("add"))
                        .and(JavaCall.Predicates.target(HasOwner.Predicates.With.owner(
                                JavaClass.Predicates.assignableTo(ScheduledTaskRegistrar.class)))))
                .orShould().dependOnClassesThat().belongToAnyOf(Backoff.class, Shutdown.class, SweepLoop.class,
                        JobMetrics.class, Outcome.class)
                .because("a flow declares its jobs (Resolver, Poller); the sweep package schedules them")
                .check(MAIN);
    }

    /** The packages of the flows: those outside {@code sweep} that hold a {@code Resolver} or a {@code Poller}. */
    static String[] flowPackages() {
        return MAIN.stream().filter(c -> !c.getPackageName().startsWith("com.acme.payments.sweep"))
                .filter(c -> c.isAssignableTo(Resolver.class) || c.isAssignableTo(Poller.class))
                .map(JavaClass::getPackageName).distinct().sorted().toArray(String[]::new);
    }

    @Test
    void storesSweepersAndRelaysReadTimeFromTheClockOrTheDatabase() {
        noClasses().that().haveSimpleNameEndingWith("Store").or().haveSimpleNameEndingWith("Sweeper")
                .or().haveSimpleNameEndingWith("Relay").or().haveSimpleNameEndingWith("Replayer")
                .should().callMethod(Instant.class, "now").check(MAIN);
    }

    /** A class is transactional when it or one of its methods carries {@code @Transactional}. */
    static final DescribedPredicate<JavaClass> TRANSACTIONAL = DescribedPredicate.describe("@Transactional",
            c -> c.isAnnotatedWith(Transactional.class)
                    || c.getMethods().stream().anyMatch(m -> m.isAnnotatedWith(Transactional.class)));

    /** Conventions 3 and 5: a transaction is opened by a Store (its tables) or an Applier (one business write). */
    @Test
    void onlyStoresAndAppliersAreTransactional() {
        classes().that(TRANSACTIONAL)
                .should().haveSimpleNameEndingWith("Store").orShould().haveSimpleNameEndingWith("Applier")
                .check(MAIN);
    }

    /**
     * Convention 3: an Applier is one business write; one Applier calling another joins the caller's
     * transaction, never opens its own (a REQUIRES_NEW would commit half a write; a REQUIRED callee would
     * open a transaction when called alone, and so could be called alone by mistake).
     */
    @Test
    void appliersCalledFromAppliersAreMandatory() {
        classes().that().haveSimpleNameEndingWith("Applier").should(callOtherAppliersOnlyMandatory()).check(MAIN);
    }

    /**
     * The inbox's Applier hands each payment report to the flow that owns it through an interface
     * ({@code PaymentUpdateHandler}), which the rule above cannot see: that flow's Applier takes it itself
     * and joins the inbox's transaction, so the receipt's close and the flow's write commit together, and no
     * relay class stands between the two Appliers.
     */
    @Test
    void paymentUpdateHandlersAreAppliersThatJoin() {
        methods().that().haveName("apply").and().haveRawParameterTypes(PspPayment.class)
                .and().areDeclaredInClassesThat().implement(PaymentUpdateHandler.class)
                .should().beDeclaredInClassesThat().haveSimpleNameEndingWith("Applier")
                .andShould(joinTheCallersTransaction()).check(MAIN);
    }

    private static ArchCondition<JavaMethod> joinTheCallersTransaction() {
        return new ArchCondition<>("be @Transactional(propagation = MANDATORY)") {
            @Override
            public void check(JavaMethod method, ConditionEvents events) {
                boolean mandatory = method.isAnnotatedWith(Transactional.class)
                        && method.getAnnotationOfType(Transactional.class).propagation() == Propagation.MANDATORY;
                events.add(new SimpleConditionEvent(method, mandatory, method.getFullName()
                        + (mandatory ? " joins with MANDATORY" : " is not MANDATORY")));
            }
        };
    }

    private static ArchCondition<JavaClass> callOtherAppliersOnlyMandatory() {
        return new ArchCondition<>("call another *Applier only through @Transactional(propagation = MANDATORY)") {
            @Override
            public void check(JavaClass applier, ConditionEvents events) {
                for (JavaMethodCall call : applier.getMethodCallsFromSelf()) {
                    JavaClass callee = call.getTargetOwner();
                    if (callee.equals(applier) || !callee.getSimpleName().endsWith("Applier")) {
                        continue;
                    }
                    boolean mandatory = call.getTarget().resolveMember()
                            .map(method -> method.isAnnotatedWith(Transactional.class)
                                    ? method.getAnnotationOfType(Transactional.class).propagation() == Propagation.MANDATORY
                                    : callee.isAnnotatedWith(Transactional.class)
                                            && callee.getAnnotationOfType(Transactional.class).propagation()
                                                    == Propagation.MANDATORY)
                            .orElse(false);
                    events.add(new SimpleConditionEvent(call, mandatory,
                            call.getDescription() + (mandatory ? " joins with MANDATORY" : " is not MANDATORY")));
                }
            }
        };
    }

    /** Conventions 5: no network call inside a transaction, so no transactional class can reach a client. */
    @Test
    void noTransactionalClassDependsOnAClient() {
        noClasses().that(TRANSACTIONAL).should().dependOnClassesThat(
                DescribedPredicate.describe("a *Client of ours", (JavaClass c) ->
                        c.getPackageName().startsWith("com.acme.payments") && c.getSimpleName().endsWith("Client")))
                .check(MAIN);
    }

    /** The compile-time half of deny by default ({@code AccessRules}, in the security chain, is the run-time half). */
    @Test
    void everyMappingNamesWhoMayCallIt() {
        methods().that().areMetaAnnotatedWith(RequestMapping.class)
                .and().areDeclaredInClassesThat().resideInAPackage("com.acme.payments..")
                .should(haveAnAccessRule()).check(MAIN);
    }

    private static ArchCondition<JavaMethod> haveAnAccessRule() {
        return new ArchCondition<>("carry @Allow or @Public (on the method or its class)") {
            @Override
            public void check(JavaMethod method, ConditionEvents events) {
                boolean ruled = method.isAnnotatedWith(Allow.class) || method.isAnnotatedWith(Public.class)
                        || method.getOwner().isAnnotatedWith(Allow.class)
                        || method.getOwner().isAnnotatedWith(Public.class);
                events.add(new SimpleConditionEvent(method, ruled, method.getFullName() + " has no access rule"));
            }
        };
    }
}
