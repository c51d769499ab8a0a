package dev.seqgen.sample.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The load client's bounds: loopback only, a bounded number of orders, threads and time. */
class LoadClientOptionsTest {

    @Test
    void defaultsAreAThousandOrdersFromEightThreadsForAtMostAMinute() {
        LoadClient.Options options = LoadClient.Options.parse();

        assertThat(options.url()).isEqualTo(URI.create("http://localhost:8080"));
        assertThat(options.orders()).isEqualTo(1000);
        assertThat(options.concurrency()).isEqualTo(8);
        assertThat(options.duration()).isEqualTo(Duration.ofSeconds(60));
        assertThat(options.failEvery()).isEqualTo(10);
    }

    @Test
    void parsesEveryOption() {
        LoadClient.Options options = LoadClient.Options.parse("--url=http://127.0.0.1:9090", "--orders=50",
                "--concurrency=2", "--duration=2m", "--fail-every=0");

        assertThat(options).isEqualTo(new LoadClient.Options(URI.create("http://127.0.0.1:9090"), 50, 2,
                Duration.ofMinutes(2), 0));
    }

    @Test
    void refusesAnythingButALoopbackAddress() {
        assertThatIllegalArgumentException().isThrownBy(() -> LoadClient.Options.parse("--url=http://192.0.2.1:8080"))
                .withMessageContaining("loopback").withMessageContaining("192.0.2.1");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadClient.Options.parse("--url=ftp://localhost/"))
                .withMessageContaining("http(s)");
    }

    @Test
    void refusesUnboundedRuns() {
        assertThatIllegalArgumentException().isThrownBy(() -> LoadClient.Options.parse("--orders=100001"))
                .withMessage("--orders must be 1..100000, not 100001");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadClient.Options.parse("--concurrency=65"))
                .withMessage("--concurrency must be 1..64, not 65");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadClient.Options.parse("--duration=11m"))
                .withMessageStartingWith("--duration must be 1s..10m");
    }

    @Test
    void namesAMistypedOption() {
        assertThatIllegalArgumentException().isThrownBy(() -> LoadClient.Options.parse("--order=5"))
                .withMessageStartingWith("unknown option --order");
        assertThatIllegalArgumentException().isThrownBy(() -> LoadClient.Options.parse("--orders=many"))
                .withMessage("--orders must be an integer, not many");
    }
}
