# syntax=docker/dockerfile:1
# One image for the payments service and the PSP simulator (same jar, different main class).
#   service:   java <JVM flags> org.springframework.boot.loader.launch.JarLauncher     (the default)
#   simulator: java <JVM flags> -Dloader.main=com.acme.pspsim.PspSimulatorApplication \
#                   org.springframework.boot.loader.launch.PropertiesLauncher
# JVM flags for a container: the heap is a share of the container's memory limit (no -Xmx to keep in step
# with it), and an OutOfMemoryError ends the process at once, so the orchestrator restarts a clean one
# instead of leaving a JVM half alive. Extra flags: JAVA_TOOL_OPTIONS.
# Build: docker build -t acme/payments .   (docker-compose.yml does this for the whole stack)

FROM eclipse-temurin:17-jdk AS build
WORKDIR /build
# The wrapper and the POM first, so the dependency download is cached while only sources change.
COPY mvnw pom.xml ./
COPY .mvn/ .mvn/
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -q dependency:go-offline || true
COPY src/ src/
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -DskipTests package \
    && cp target/payments-*.jar application.jar \
    && java -Djarmode=tools -jar application.jar extract --layers --launcher --destination extracted

FROM eclipse-temurin:17-jre
RUN groupadd --system --gid 10001 app && useradd --system --uid 10001 --gid app --no-create-home app
WORKDIR /app
# Layers from the least to the most often changed: a code change rebuilds only the last one.
COPY --from=build /build/extracted/dependencies/ ./
COPY --from=build /build/extracted/spring-boot-loader/ ./
COPY --from=build /build/extracted/snapshot-dependencies/ ./
COPY --from=build /build/extracted/application/ ./
USER app:app
# 8080: the API; 9081: the actuator when MANAGEMENT_SERVER_PORT=9081 (as docker-compose.yml sets it)
EXPOSE 8080 9081
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", \
            "org.springframework.boot.loader.launch.JarLauncher"]
