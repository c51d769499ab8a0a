package dev.seqgen.boot.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.SequenceRegistry;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A whole application with seqgen, Micrometer and Actuator on the class path, asked over HTTP. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.generate-unique-name=true",
        "management.endpoints.web.exposure.include=health,seqgen,metrics",
        "management.endpoint.health.show-details=always",
        "seqgen.sequences.orders.strategy=batch", "seqgen.sequences.orders.block-size=10",
        "seqgen.sequences.invoices.strategy=sync" })
class SeqgenActuatorHttpTest {

    private final HttpClient http = HttpClient.newHttpClient();

    private final JsonMapper json = JsonMapper.builder().build();

    @LocalServerPort
    private int port;

    @Autowired
    private SequenceRegistry registry;

    @Test
    void theSeqgenEndpointListsTheSequencesAsJson() throws Exception {
        for (int i = 0; i < 3; i++) {
            registry.sequence("orders").next();
        }

        HttpResponse<String> response = get("/actuator/seqgen");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json.readTree(response.body());
        assertThat(body.path("store").asString()).isEqualTo("h2");
        JsonNode orders = body.path("sequences").path("orders");
        assertThat(orders.path("strategy").asString()).isEqualTo("batch");
        assertThat(orders.path("inUse").asBoolean()).isTrue();
        assertThat(orders.path("currentBlock").path("first").asLong()).isEqualTo(1);
        assertThat(orders.path("currentBlock").path("last").asLong()).isEqualTo(10);
        assertThat(orders.path("remaining").asLong()).isEqualTo(7);
        assertThat(orders.path("storeNextValue").asLong()).isEqualTo(11);
        assertThat(orders.path("counters").path("issued").asLong()).isEqualTo(3);
        assertThat(orders.path("settings").path("acquire-timeout").asString()).isEqualTo("PT5S");
        JsonNode invoices = body.path("sequences").path("invoices");
        assertThat(invoices.path("strategy").asString()).isEqualTo("sync");
        assertThat(invoices.path("inUse").asBoolean()).isFalse();
        assertThat(invoices.path("storeNextValue").asLong()).isEqualTo(1);
    }

    @Test
    void oneSequenceBySelectorAndUnknownNamesAre404() throws Exception {
        HttpResponse<String> invoices = get("/actuator/seqgen/invoices");
        assertThat(invoices.statusCode()).isEqualTo(200);
        assertThat(json.readTree(invoices.body()).path("strategy").asString()).isEqualTo("sync");

        assertThat(get("/actuator/seqgen/unknown").statusCode()).isEqualTo(404);
    }

    /**
     * A sequence's series are listed on request, by key prefix, a page at a time, and never in the list of every
     * sequence.
     */
    @Test
    void theSeriesOfASequenceAreListedByPrefixAPageAtATime() throws Exception {
        for (int i = 1; i <= 60; i++) {
            registry.series("ledger", String.format("acme/%03d", i));
            registry.series("ledger", String.format("globex/%03d", i));
        }
        registry.series("ledger", "acme/001").next();

        JsonNode sequences = json.readTree(get("/actuator/seqgen").body()).path("sequences");
        assertThat(sequences.propertyNames()).noneMatch(name -> name.contains("#"));
        assertThat(sequences.path("ledger").path("openSeries").asInt()).isEqualTo(120);
        JsonNode ledger = json.readTree(get("/actuator/seqgen/ledger").body());
        assertThat(ledger.path("openSeries").asInt()).as("numbered only in series, listed by its name").isEqualTo(120);
        assertThat(ledger.path("seriesPage").asString()).isEqualTo("ledger/{prefix}");
        JsonNode acme = json.readTree(get("/actuator/seqgen/ledger/acme?page=1").body());
        assertThat(acme.path("total").asInt()).isEqualTo(60);
        assertThat(acme.path("pageSize").asInt()).isEqualTo(50);
        assertThat(acme.path("series").propertyNames()).hasSize(10).first().isEqualTo("acme/051");
        JsonNode one = json.readTree(get("/actuator/seqgen/ledger/acme/001").body());
        assertThat(one.path("total").asInt()).isEqualTo(1);
        assertThat(one.path("series").path("acme/001").path("counters").path("issued").asLong()).isEqualTo(1);
        assertThat(one.path("series").path("acme/001").path("storeNextValue").asLong()).isPositive();
        JsonNode all = json.readTree(get("/actuator/seqgen/ledger/*").body());
        assertThat(all.path("total").asInt()).isEqualTo(120);
        assertThat(all.path("series").propertyNames()).hasSize(50);
    }

    @Test
    void theHealthEndpointShowsSeqgen() throws Exception {
        HttpResponse<String> response = get("/actuator/health/seqgen");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode health = json.readTree(response.body());
        assertThat(health.path("status").asString()).isEqualTo("UP");
        assertThat(health.path("details").path("store").asString()).isEqualTo("h2");
        assertThat(health.path("details").path("sequences").path("invoices").path("nextValue").asLong())
                .isEqualTo(1);
    }

    @Test
    void theMetersAreInTheMetricsEndpoint() throws Exception {
        registry.sequence("customers").next();

        HttpResponse<String> response = get("/actuator/metrics/seqgen.ids.issued?tag=sequence:customers");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode metric = json.readTree(response.body());
        assertThat(metric.path("baseUnit").asString()).isEqualTo("ids");
        assertThat(metric.path("measurements").get(0).path("value").asDouble()).isPositive();
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
    }
}
