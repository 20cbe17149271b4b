package io.ossgw.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.v4.xdr.Nfs4;
import org.junit.jupiter.api.Test;

/** The {@code op} label values of {@code ossgw_nfs4_operations_total} are the RFC 8881 names of their numbers. */
class Nfs4MetricsTest {
  @Test
  void everyOperationNameIsItsNfs4ConstantInLowerCase() throws ReflectiveOperationException {
    assertThat(Nfs4Metrics.OPS).hasSize(Nfs4.OP_MAX_V41 - Nfs4.OP_ACCESS + 1).doesNotHaveDuplicates();
    for (int i = 0; i < Nfs4Metrics.OPS.length; i++) {
      String constant = "OP_" + Nfs4Metrics.OPS[i].toUpperCase(java.util.Locale.ROOT);
      assertThat(Nfs4.class.getField(constant).getInt(null)).as(constant).isEqualTo(Nfs4.OP_ACCESS + i);
    }
  }
}
