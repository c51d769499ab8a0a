package dev.seqgen.jdbc;

import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The lending rules of seqgen's dedicated connection, on plain H2 connections (no pool in between). */
class DedicatedConnectionTest {

    private final JdbcDataSource h2 = new JdbcDataSource();

    DedicatedConnectionTest() {
        h2.setURL("jdbc:h2:mem:dedicated-connection-test");
    }

    @Test
    void lendsTheSameConnectionEachTimeAndAHandleIsDeadAfterClose() throws SQLException {
        try (JdbcConnections.Dedicated dedicated = new JdbcConnections.Dedicated(h2)) {
            Connection first = dedicated.getConnection();
            Connection physical = first.unwrap(Connection.class);
            first.close();
            assertThat(first.isClosed()).isTrue();
            assertThatThrownBy(first::createStatement).isInstanceOf(SQLException.class)
                    .hasMessageContaining("closed");

            try (Connection second = dedicated.getConnection()) {
                assertThat(second.unwrap(Connection.class)).isSameAs(physical);
                assertThat(physical.isClosed()).as("lending never closes it").isFalse();
            }
        }
    }

    @Test
    void aThreadCannotBorrowTwiceAtOnce() throws SQLException {
        try (JdbcConnections.Dedicated dedicated = new JdbcConnections.Dedicated(h2);
                Connection held = dedicated.getConnection()) {
            assertThatThrownBy(dedicated::getConnection).isInstanceOf(SQLException.class)
                    .hasMessageContaining("already lent");
            assertThat(held.isValid(1)).isTrue();
        }
    }

    @Test
    void aConnectionFoundClosedOnReturnIsReplaced() throws SQLException {
        try (JdbcConnections.Dedicated dedicated = new JdbcConnections.Dedicated(h2)) {
            Connection broken;
            try (Connection lent = dedicated.getConnection()) {
                broken = lent.unwrap(Connection.class);
                broken.close();
            }
            try (Connection replacement = dedicated.getConnection(); Statement statement =
                    replacement.createStatement()) {
                assertThat(replacement.unwrap(Connection.class)).isNotSameAs(broken);
                assertThat(statement.execute("SELECT 1")).isTrue();
            }
        }
    }

    @Test
    void closeReturnsTheConnectionAndRefusesLaterBorrowers() throws SQLException {
        JdbcConnections.Dedicated dedicated = new JdbcConnections.Dedicated(h2);
        Connection physical;
        try (Connection lent = dedicated.getConnection()) {
            physical = lent.unwrap(Connection.class);
        }
        dedicated.close();
        assertThat(physical.isClosed()).isTrue();
        assertThatThrownBy(dedicated::getConnection).isInstanceOf(SQLException.class).hasMessageContaining("closed");
    }
}
