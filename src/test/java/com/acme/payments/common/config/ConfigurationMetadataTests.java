package com.acme.payments.common.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Configuration that explains itself: every {@code payments.*}, {@code stripe.*} and {@code billing.*}
 * property the code reads or the YAML files set has an entry with a description in the generated
 * {@code META-INF/spring-configuration-metadata.json} (the configuration processor reads the records'
 * {@code @param} Javadoc and {@code @DefaultValue}s).
 */
class ConfigurationMetadataTests {

    private static final Pattern OURS = Pattern.compile("(payments|stripe|billing)\\..+");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{((?:payments|stripe|billing)\\.[a-z0-9.-]+)");

    @Test
    void everyPropertyWeReadOrSetIsDescribed() throws IOException {
        Map<String, JsonNode> metadata = metadata();
        Set<String> used = new TreeSet<>();
        for (String yml : List.of("src/main/resources/application.yml", "src/test/resources/application-test.yml")) {
            used.addAll(yamlKeys(Path.of(yml)));
        }
        try (Stream<Path> sources = Files.walk(Path.of("src/main/java"))) {
            for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = PLACEHOLDER.matcher(Files.readString(source));
                while (m.find()) {
                    used.add(m.group(1));
                }
            }
        }
        assertThat(used).as("properties found").hasSizeGreaterThan(20);

        List<String> undescribed = new ArrayList<>();
        for (String key : used) {
            JsonNode entry = lookUp(metadata, key);
            if (entry == null || entry.path("description").asString("").isBlank()) {
                undescribed.add(key);
            }
        }
        assertThat(undescribed).as("properties without a described metadata entry").isEmpty();
        assertThat(metadata.values().stream().filter(e -> e.path("description").asString("").isBlank())
                .map(e -> e.path("name").asString()).toList()).as("metadata entries without a description").isEmpty();
    }

    /** The entry of {@code key}, or of the Map property it is a key of ({@code billing.products.<id>.credits}). */
    private static JsonNode lookUp(Map<String, JsonNode> metadata, String key) {
        for (String candidate = key; candidate.contains("."); candidate = candidate.substring(0,
                candidate.lastIndexOf('.'))) {
            JsonNode entry = metadata.get(candidate);
            if (entry != null && (candidate.equals(key) || entry.path("type").asString("").startsWith("java.util.Map"))) {
                return entry;
            }
        }
        return null;
    }

    private static Map<String, JsonNode> metadata() throws IOException {
        Map<String, JsonNode> ours = new java.util.TreeMap<>();
        for (URL url : Collections.list(ClassLoader.getSystemClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
            if (!url.toString().contains("/target/classes/")) {
                continue; // a dependency's
            }
            try (InputStream in = url.openStream()) {
                for (JsonNode property : JsonMapper.builder().build().readTree(in).path("properties")) {
                    if (OURS.matcher(property.path("name").asString()).matches()) {
                        ours.put(property.path("name").asString(), property);
                    }
                }
            }
        }
        assertThat(ours).as("generated metadata of payments.*, stripe.*, billing.*").isNotEmpty();
        return ours;
    }

    @SuppressWarnings("unchecked")
    private static Set<String> yamlKeys(Path file) throws IOException {
        Set<String> keys = new TreeSet<>();
        try (InputStream in = Files.newInputStream(file)) {
            for (Object doc : new Yaml().loadAll(in)) {
                if (doc instanceof Map<?, ?> map) {
                    flatten("", (Map<String, Object>) map, keys);
                }
            }
        }
        keys.removeIf(k -> !OURS.matcher(k).matches());
        return keys;
    }

    @SuppressWarnings("unchecked")
    private static void flatten(String prefix, Map<String, Object> map, Set<String> keys) {
        map.forEach((k, v) -> {
            String key = prefix.isEmpty() ? k : prefix + "." + k;
            if (v instanceof Map<?, ?> nested) {
                flatten(key, (Map<String, Object>) nested, keys);
            } else {
                keys.add(key);
            }
        });
    }
}
