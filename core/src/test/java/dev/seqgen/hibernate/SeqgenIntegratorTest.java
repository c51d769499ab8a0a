package dev.seqgen.hibernate;

import org.hibernate.Version;
import org.hibernate.integrator.spi.Integrator;
import org.hibernate.service.spi.ServiceContributor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SeqgenIntegratorTest {

    @Test
    void hibernateFindsItAsItsServiceContributorAndItsIntegrator() {
        assertThat(ServiceLoader.load(ServiceContributor.class).stream().map(ServiceLoader.Provider::type))
                .contains(SeqgenIntegrator.class);
        assertThat(ServiceLoader.load(Integrator.class).stream().map(ServiceLoader.Provider::type))
                .contains(SeqgenIntegrator.class);
    }

    @Test
    void theHibernateRunningTheTestsIsAccepted() {
        assertThatCode(() -> SeqgenIntegrator.requireSupported(Version.getVersionString()))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"7.1.0.Final", "7.1.8.Final", "7.2.0.Final", "7.4.1.Final", "7.4.15.Final",
            "8.0.0.Alpha1", "[WORKING]", ""})
    void releasesFrom71OnAndUnreadableVersionsAreAccepted(String version) {
        assertThatCode(() -> SeqgenIntegrator.requireSupported(version)).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"7.0.10.Final", "6.6.13.Final", "5.6.15.Final"})
    void olderReleasesAreRefusedWithTheVersionAndWhatToDo(String version) {
        assertThatThrownBy(() -> SeqgenIntegrator.requireSupported(version))
                .isInstanceOf(SeqgenMappingException.class)
                .hasMessageContaining("seqgen")
                .hasMessageContaining("Hibernate ORM " + version)
                .hasMessageContaining("7.1 or later")
                .hasMessageContaining("hibernate.version");
    }
}
