package com.acme.payments.common.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.io.ClassPathResource;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

import com.acme.payments.retention.Retentions;
import com.acme.payments.sweep.Poll;
import com.acme.payments.sweep.Polls;
import com.acme.payments.sweep.Schedules;
import com.acme.payments.sweep.Sweeps;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The scheduler has a thread per job, so a job blocked on a slow PSP call never holds another back. A job
 * is a {@code @Scheduled} method or a task registered in a {@code SchedulingConfigurer} (through
 * {@link Schedules} or the registrar itself).
 */
class SchedulingPoolTests {

    @Test
    void thePoolHasAThreadForEveryScheduledJob() throws IOException {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("com.acme.payments");
        long annotated = classes.stream().flatMap(c -> c.getMethods().stream())
                .filter(m -> m.isAnnotatedWith(Scheduled.class)).count();
        // Sweeps registers one task per group of sweep jobs: the groups its resolvers name count, not Sweeps;
        // Polls registers one task per poll job: the jobs its pollers declare count, not Polls (nor its Poll);
        // Retentions registers one task per retention job: the jobs its retainers declare count, not Retentions
        long registered = classes.stream().filter(c -> !c.isEquivalentTo(Schedules.class)
                        && !c.isEquivalentTo(Sweeps.class) && !c.isEquivalentTo(Polls.class)
                        && !c.isEquivalentTo(Poll.class) && !c.isEquivalentTo(Retentions.class))
                .flatMap(c -> c.getMethodCallsFromSelf().stream())
                .filter(call -> call.getTargetOwner().isEquivalentTo(Schedules.class)
                        || call.getTargetOwner().isEquivalentTo(ScheduledTaskRegistrar.class)
                                && call.getName().startsWith("add"))
                .count();
        long jobs = annotated + registered + sweepGroups() + pollJobs() + retentionJobs();
        Object size = new YamlPropertySourceLoader().load("application", new ClassPathResource("application.yml"))
                .get(0).getProperty("spring.task.scheduling.pool.size");
        assertThat(jobs).as("@Scheduled methods + registered tasks").isGreaterThan(5);
        assertThat(Integer.parseInt(String.valueOf(size))).as("spring.task.scheduling.pool.size").isEqualTo((int) jobs);
    }

    /** The distinct groups of {@code new SweepJob<>("name", "group", …)} in src/main: one scheduled task each. */
    private static long sweepGroups() throws IOException {
        Set<String> groups = matches(Pattern.compile("new SweepJob<>\\(\\s*\"[^\"]+\",\\s*\"([^\"]+)\""));
        assertThat(groups).as("sweep groups").isNotEmpty();
        return groups.size();
    }

    /** Each {@code new RetentionJob(…)} in src/main (a job's name is a constant): one scheduled task each. */
    private static long retentionJobs() throws IOException {
        long jobs = 0;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/com/acme/payments"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                jobs += Pattern.compile("new RetentionJob\\(").matcher(Files.readString(file)).results().count();
            }
        }
        assertThat(jobs).as("retention jobs").isEqualTo(4);
        return jobs;
    }

    /** The distinct names of {@code new PollJob<…>("name", …)} in src/main: one scheduled task each. */
    private static long pollJobs() throws IOException {
        Set<String> polls = matches(Pattern.compile("new PollJob<[^>]*>\\(\\s*\"([^\"]+)\""));
        assertThat(polls).as("poll jobs").isNotEmpty();
        return polls.size();
    }

    private static Set<String> matches(Pattern pattern) throws IOException {
        Set<String> found = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/com/acme/payments"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = pattern.matcher(Files.readString(file));
                while (m.find()) {
                    found.add(m.group(1));
                }
            }
        }
        return found;
    }
}
