package io.weir.merge;

import io.weir.data.KeyFields;

/**
 * A partial-update sequence group: the fields that the sequence fields order, which a record
 * updates as a unit.
 *
 * @param sequence the sequence fields as a key, compared in order
 * @param sequencePositions the sequence fields' positions
 * @param positions every field of the group, sequence fields first
 */
record SequenceGroup(KeyFields sequence, int[] sequencePositions, int[] positions) {}
