package com.acme.payments.common.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;

import org.junit.jupiter.api.Test;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.io.ClassPathResource;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

import com.acme.payments.sweep.Poll;
import com.acme.payments.sweep.Schedules;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The scheduler has a thread per job, so a job blocked on a slow PSP call never holds another back. A job
 * is a {@code @Scheduled} method or a task registered in a {@code SchedulingConfigurer} (through
 * {@link Schedules}, {@link Poll#schedule} or the registrar itself).
 */
class SchedulingPoolTests {

    @Test
    void thePoolHasAThreadForEveryScheduledJob() throws IOException {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("com.acme.payments");
        long annotated = classes.stream().flatMap(c -> c.getMethods().stream())
                .filter(m -> m.isAnnotatedWith(Scheduled.class)).count();
        // Poll.schedule registers one task through Schedules per call: its callers count, not Poll itself
        long registered = classes.stream().filter(c -> !c.isEquivalentTo(Schedules.class) && !c.isEquivalentTo(Poll.class))
                .flatMap(c -> c.getMethodCallsFromSelf().stream())
                .filter(call -> call.getTargetOwner().isEquivalentTo(Schedules.class)
                        || call.getTargetOwner().isEquivalentTo(Poll.class) && call.getName().equals("schedule")
                        || call.getTargetOwner().isEquivalentTo(ScheduledTaskRegistrar.class)
                                && call.getName().startsWith("add"))
                .count();
        long jobs = annotated + registered;
        Object size = new YamlPropertySourceLoader().load("application", new ClassPathResource("application.yml"))
                .get(0).getProperty("spring.task.scheduling.pool.size");
        assertThat(jobs).as("@Scheduled methods + registered tasks").isGreaterThan(5);
        assertThat(Integer.parseInt(String.valueOf(size))).as("spring.task.scheduling.pool.size").isEqualTo((int) jobs);
    }
}
