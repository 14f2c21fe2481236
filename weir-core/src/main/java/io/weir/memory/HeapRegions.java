package io.weir.memory;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.ManagementFactory;

/**
 * The slab size that suits this JVM's heap: an array that fills one G1 heap region. G1 places an
 * array of at least half a region in regions of its own (a humongous object), in the old
 * generation, and never copies it; one of a region's size less {@link #HEADER_SLACK} bytes takes
 * exactly one region, so nothing of the region is lost.
 */
public final class HeapRegions {
    /** Room left for the array header (16 or 24 bytes) and the object's alignment. */
    static final int HEADER_SLACK = 64;

    private static final int SLAB_BYTES = detectSlabBytes();

    private HeapRegions() {}

    /** One G1 region less {@link #HEADER_SLACK}, or 0 when the JVM does not run G1. */
    public static int slabBytes() {
        return SLAB_BYTES;
    }

    private static int detectSlabBytes() {
        try {
            HotSpotDiagnosticMXBean vm =
                    ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (vm == null || !"true".equals(vm.getVMOption("UseG1GC").getValue())) {
                return 0;
            }
            long region = Long.parseLong(vm.getVMOption("G1HeapRegionSize").getValue());
            return region > HEADER_SLACK && region <= (1L << 30) ? (int) region - HEADER_SLACK : 0;
        } catch (RuntimeException | LinkageError e) {
            // Not HotSpot, or the management classes are missing: pages only.
            return 0;
        }
    }
}
