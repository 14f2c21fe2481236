/**
 * Table services that keep a long-running table small: snapshot expiry ({@link
 * io.weir.service.SnapshotExpiry}), orphan file removal ({@link io.weir.service.OrphanFileRemoval})
 * and the reader leases that protect snapshots from expiry ({@link
 * io.weir.service.FileSnapshotLeases}). Obtain them from {@link io.weir.Table}; the semantics are
 * in docs/table-services.md.
 */
package io.weir.service;
