# syntax=docker/dockerfile:1
# Two images from one build, each running its own jar:
#   service (the default, the last stage): target/payments-<version>.jar         docker build -t acme/payments .
#   simulator:                             target/payments-<version>-pspsim.jar  docker build --target simulator -t acme/pspsim .
#                                          (the test fixture's own jar, its libraries in target/pspsim-lib/)
# Both start with java -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError.
# JVM flags for a container: the heap is a share of the container's memory limit (no -Xmx to keep in step
# with it), and an OutOfMemoryError ends the process at once, so the orchestrator restarts a clean one
# instead of leaving a JVM half alive. Extra flags: JAVA_TOOL_OPTIONS.
# docker-compose.yml builds both for the whole stack.

# Base images by tag. To pin them by digest (reproducible builds), resolve each tag once on a machine
# that can reach the registry and write the digest beside it, e.g.
#   docker buildx imagetools inspect eclipse-temurin:17-jre --format '{{json .Manifest.Digest}}'
#   FROM eclipse-temurin:17-jre@sha256:<digest> AS runtime
# and bump both lines together when Temurin publishes a patch (the tag moves, the digest does not).
FROM eclipse-temurin:17-jdk AS build
WORKDIR /build
# The wrapper and the POM first, so the dependency download is cached while only sources change.
COPY mvnw pom.xml ./
COPY .mvn/ .mvn/
# go-offline resolves every plugin and dependency: a failure stops the build
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -q dependency:go-offline
COPY src/ src/
# -DskipTests runs no test but compiles them: the simulator's jar is built from the test classes.
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -DskipTests package \
    && cp "$(ls target/payments-*.jar | grep -v -e '-pspsim\.jar$')" service.jar \
    && mkdir -p extracted/simulator \
    && cp target/payments-*-pspsim.jar extracted/simulator/pspsim.jar \
    && cp -r target/pspsim-lib extracted/simulator/pspsim-lib \
    && java -Djarmode=tools -jar service.jar extract --layers --launcher --destination extracted/service

FROM eclipse-temurin:17-jre AS runtime
RUN groupadd --system --gid 10001 app && useradd --system --uid 10001 --gid app --no-create-home app
WORKDIR /app

# The PSP simulator (compose's pspsim): its API, hosted page, webhooks, faults and sink on 8090.
# Its libraries first (a layer that changes only with the POM), then its jar.
FROM runtime AS simulator
COPY --from=build /build/extracted/simulator/pspsim-lib/ ./pspsim-lib/
COPY --from=build /build/extracted/simulator/pspsim.jar ./
USER app:app
EXPOSE 8090
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-jar", "pspsim.jar"]

# The payments service. Layers from the least to the most often changed: a code change rebuilds only the last one.
FROM runtime AS service
COPY --from=build /build/extracted/service/dependencies/ ./
COPY --from=build /build/extracted/service/spring-boot-loader/ ./
COPY --from=build /build/extracted/service/snapshot-dependencies/ ./
COPY --from=build /build/extracted/service/application/ ./
USER app:app
# 8080: the API; 9081: the actuator when MANAGEMENT_SERVER_PORT=9081 (as docker-compose.yml sets it)
EXPOSE 8080 9081
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", \
            "org.springframework.boot.loader.launch.JarLauncher"]
