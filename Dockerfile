# syntax=docker/dockerfile:1
# One image for the payments service and the PSP simulator (same jar, different main class).
#   service:   java org.springframework.boot.loader.launch.JarLauncher            (the default)
#   simulator: java -Dloader.main=com.acme.pspsim.PspSimulatorApplication \
#                   org.springframework.boot.loader.launch.PropertiesLauncher
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
EXPOSE 8080
ENTRYPOINT ["java", "org.springframework.boot.loader.launch.JarLauncher"]
