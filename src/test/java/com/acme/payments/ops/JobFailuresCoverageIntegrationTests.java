package com.acme.payments.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.config.ScheduledTask;
import org.springframework.scheduling.config.ScheduledTaskHolder;
import org.springframework.scheduling.support.ScheduledMethodRunnable;
import org.yaml.snakeyaml.Yaml;

import com.acme.payments.support.IntegrationTest;
import com.acme.payments.retention.Retainer;
import com.acme.payments.retention.RetentionJob;
import com.acme.payments.sweep.JobMetrics;
import com.acme.payments.sweep.Poll;
import com.acme.payments.sweep.PollJob;
import com.acme.payments.sweep.Poller;
import com.acme.payments.sweep.Resolver;
import com.acme.payments.sweep.Sweeps;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code JobFailures} covers every job the application schedules, so a new job cannot be forgotten: the
 * running application's scheduled tasks (every {@code @Scheduled} method and every task a
 * {@code SchedulingConfigurer} registered) are read from the scheduler, each is traced to the job it
 * runs, every such job must record {@code payments.job.failures{task}}, and the rule's selector must
 * match every one of those names. A new task fails here until it records {@link JobMetrics} (and is named
 * below if it is neither a sweep nor a poll).
 */
class JobFailuresCoverageIntegrationTests extends IntegrationTest {

    /** Tasks that are not sweeps or polls: the job name each records its {@link JobMetrics} under. */
    private static final Map<String, String> STANDALONE = Map.of(
            "InboxReplayer.replay", "inbox-replay",
            "ReconciliationSweeper.nightly", "billing-reconciliation",
            "BooksReconciliationSweeper.check", "books-reconciliation",
            "OutboxRelay.scheduledTurn", "outbox-relay");

    /**
     * Scheduled, but no job: they re-read gauges' figures and handle no rows. A failed refresh keeps the
     * gauges' last values (logged; {@code RefundMetrics} also throws, seen by ScheduledTaskErrors).
     */
    private static final Set<String> GAUGE_REFRESHES = Set.of("DatabaseGauges.refresh",
            "RefundMetrics.refreshReserved");

    /**
     * Scheduled, but no job either: each instance's copy of the issued keys and the batched last uses. A failed
     * re-read is logged, and a copy older than its limit honours no issued key (IssuedKeysIntegrationTests).
     */
    private static final Set<String> KEY_COPIES = Set.of("IssuedKeys.refresh", "KeyUsage.flush");

    private static final Pattern SELECTOR = Pattern.compile("payments_job_failures_total\\s*(\\{([^}]*)})?");
    private static final Pattern MATCHER = Pattern.compile("\\s*([a-zA-Z_]\\w*)\\s*(=~|!~|!=|=)\\s*\"([^\"]*)\"\\s*,?");
    private static final Pattern README_THREADS = Pattern.compile("one thread per scheduled task \\((\\d+)\\)");

    @Autowired
    private List<ScheduledTaskHolder> holders;
    @Autowired
    private List<Resolver<?>> resolvers;
    @Autowired
    private List<Poller> pollers;
    @Autowired
    private List<Retainer> retainers;
    @Autowired
    private MeterRegistry meters;
    @Value("${spring.task.scheduling.pool.size}")
    private int poolSize;

    @Test
    @DisplayName("every scheduled job records payments.job.failures{task} and the JobFailures rule matches its name")
    void jobFailuresCoversEveryScheduledJob() throws IOException {
        Map<String, Integer> tasks = scheduledTasks();
        Set<String> jobs = new TreeSet<>();
        int sweepGroups = 0;
        int polls = 0;
        int retentions = 0;
        List<String> unknown = new ArrayList<>();
        for (Map.Entry<String, Integer> task : tasks.entrySet()) {
            String name = task.getKey();
            if (name.equals("Group.run")) {
                sweepGroups = task.getValue();
            } else if (name.equals("Poll.run")) {
                polls = task.getValue();
            } else if (name.equals("RetentionPass.scheduled")) {
                retentions = task.getValue();
            } else if (STANDALONE.containsKey(name)) {
                assertThat(task.getValue()).as(name + " scheduled once").isEqualTo(1);
                jobs.add(STANDALONE.get(name));
            } else if (!GAUGE_REFRESHES.contains(name) && !KEY_COPIES.contains(name)) {
                unknown.add(name);
            }
        }
        assertThat(unknown).as("scheduled tasks that are no known job: record JobMetrics and name them in STANDALONE")
                .isEmpty();
        assertThat(tasks.keySet()).as("every named task is still scheduled (drop stale entries here)")
                .containsAll(STANDALONE.keySet()).containsAll(GAUGE_REFRESHES).containsAll(KEY_COPIES);

        // the sweep framework: one task per group of resolvers, one per poll job
        Set<String> groups = resolvers.stream().map(r -> r.job().group()).collect(Collectors.toSet());
        assertThat(sweepGroups).as("Sweeps.Group tasks").isEqualTo(groups.size()).isPositive();
        resolvers.forEach(r -> jobs.add(r.job().name()));
        List<String> pollJobs = pollers.stream().flatMap(p -> p.polls().stream()).map(PollJob::name).toList();
        assertThat(polls).as("Poll tasks").isEqualTo(pollJobs.size()).isPositive();
        jobs.addAll(pollJobs);
        // the retention mechanism: one task per retention job
        List<String> retentionJobs = retainers.stream().flatMap(r -> r.retentionJobs().stream())
                .map(RetentionJob::name).toList();
        assertThat(retentions).as("RetentionPass tasks").isEqualTo(retentionJobs.size()).isPositive();
        jobs.addAll(retentionJobs);

        Set<String> recording = meters.find("payments.job.failures").counters().stream()
                .map(c -> c.getId().getTag(JobMetrics.TAG)).collect(Collectors.toCollection(TreeSet::new));
        assertThat(recording).as("the jobs recording payments.job.failures{task}").isEqualTo(jobs);

        String expr = jobFailuresExpr();
        assertThat(expr).as("JobFailures names the job").containsPattern("by \\(([^)]*,\\s*)?task(\\s*,[^)]*)?\\)");
        Matcher selectors = SELECTOR.matcher(expr);
        int found = 0;
        while (selectors.find()) {
            found++;
            for (String job : jobs) {
                assertThat(selects(selectors.group(2), job)).as("JobFailures' " + selectors.group() + " selects " + job)
                        .isTrue();
            }
        }
        assertThat(found).as("JobFailures reads payments_job_failures_total").isPositive();
    }

    @Test
    @DisplayName("the scheduler has a thread per scheduled task, as application.yml sizes it and the README says")
    void theThreadCountIsMeasured() throws IOException {
        int tasks = scheduledTasks().values().stream().mapToInt(Integer::intValue).sum();
        assertThat(poolSize).as("spring.task.scheduling.pool.size").isEqualTo(tasks);
        Matcher readme = README_THREADS.matcher(Files.readString(Path.of("README.md")));
        assertThat(readme.find()).as("README states the thread count").isTrue();
        assertThat(Integer.parseInt(readme.group(1))).as("README's thread count").isEqualTo(tasks);
    }

    @Test
    @DisplayName("no meter carries a tag Prometheus sets itself (job, instance): it would arrive as exported_*")
    void noMeterCollidesWithATargetLabel() {
        List<String> colliding = meters.getMeters().stream().map(Meter::getId)
                .filter(id -> id.getTag("job") != null || id.getTag("instance") != null)
                .map(id -> id.getName() + id.getTags()).toList();
        assertThat(colliding).isEmpty();
    }

    /** "Class.method" of every scheduled task, with how many tasks run it. */
    private Map<String, Integer> scheduledTasks() {
        Map<String, Integer> tasks = new TreeMap<>();
        for (ScheduledTaskHolder holder : holders) {
            for (ScheduledTask task : holder.getScheduledTasks()) {
                ScheduledMethodRunnable method = methodOf(task.getTask().getRunnable(), 0);
                assertThat(method).as("the method behind " + task).isNotNull();
                String name = AopUtils.getTargetClass(method.getTarget()).getSimpleName() + "."
                        + method.getMethod().getName();
                tasks.merge(name, 1, Integer::sum);
            }
        }
        assertThat(tasks).isNotEmpty();
        return tasks;
    }

    /** The method a task runs: Spring's wrapper, and the guard lambda of {@code Schedules}, hold it in a field. */
    private static ScheduledMethodRunnable methodOf(Object runnable, int depth) {
        if (runnable instanceof ScheduledMethodRunnable method) {
            return method;
        }
        if (runnable == null || depth > 3) {
            return null;
        }
        for (Class<?> type = runnable.getClass(); type != null && type != Object.class; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers()) || !Runnable.class.isAssignableFrom(field.getType())
                        && field.getType() != Object.class) {
                    continue;
                }
                try {
                    field.setAccessible(true);
                    ScheduledMethodRunnable found = methodOf(field.get(runnable), depth + 1);
                    if (found != null) {
                        return found;
                    }
                } catch (ReflectiveOperationException | RuntimeException inaccessible) {
                    // not a field we can read: not the one we look for
                }
            }
        }
        return null;
    }

    /** Whether the label matchers of a selector ({@code null}: none) accept {@code task=job}. */
    private static boolean selects(String matchers, String job) {
        if (matchers == null || matchers.isBlank()) {
            return true;
        }
        Matcher m = MATCHER.matcher(matchers);
        int end = 0;
        boolean all = true;
        while (m.find() && m.start() == end) {
            end = m.end();
            if (!m.group(1).equals(JobMetrics.TAG)) {
                continue; // application, instance…: the same for every job
            }
            String value = job;
            all &= switch (m.group(2)) {
                case "=" -> value.equals(m.group(3));
                case "!=" -> !value.equals(m.group(3));
                case "=~" -> value.matches(m.group(3));
                default -> !value.matches(m.group(3));
            };
        }
        assertThat(end).as("matchers parsed: " + matchers).isEqualTo(matchers.length());
        return all;
    }

    @SuppressWarnings("unchecked")
    private static String jobFailuresExpr() throws IOException {
        try (Reader reader = Files.newBufferedReader(OpsFilesTests.ALERTS)) {
            Map<String, Object> file = new Yaml().load(reader);
            return ((List<Map<String, Object>>) file.get("groups")).stream()
                    .flatMap(g -> ((Collection<Map<String, Object>>) g.get("rules")).stream())
                    .filter(rule -> "JobFailures".equals(rule.get("alert"))).map(rule -> (String) rule.get("expr"))
                    .findFirst().orElseThrow(() -> new AssertionError("alerts.yml has no JobFailures"));
        }
    }
}
