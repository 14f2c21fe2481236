package io.weir.util;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SharedHashMapTest {

    /** A key whose hash code is chosen, so that many keys share a slot. */
    private record Key(String name, int hash) {
        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * Random versions of a map, each made from a random earlier one, against copies of a HashMap:
     * every version keeps its own entries whatever its builders did later, across growing to
     * thousands of entries and shrinking back, with keys that collide.
     */
    @Test
    void everyVersionKeepsItsEntries() {
        Random random = new Random(42);
        List<SharedHashMap<Key, Integer>> versions = new ArrayList<>();
        List<Map<Key, Integer>> models = new ArrayList<>();
        versions.add(SharedHashMap.empty());
        models.add(Map.of());
        for (int v = 0; v < 300; v++) {
            // a chain that grows, then one that shrinks, then branches from any version
            int from = v < 250 ? versions.size() - 1 : random.nextInt(versions.size());
            SharedHashMap.Builder<Key, Integer> builder = versions.get(from).toBuilder();
            Map<Key, Integer> model = new HashMap<>(models.get(from));
            int operations = v < 150 ? 150 : 300;
            for (int i = 0; i < operations; i++) {
                Key key =
                        new Key("k" + random.nextInt(6000), random.nextInt(v < 100 ? 1 << 20 : 64));
                int op = random.nextInt(10);
                if (op < (v < 150 ? 6 : 1)) {
                    int value = random.nextInt();
                    assertThat(builder.put(key, value)).isEqualTo(model.put(key, value));
                } else if (op < (v < 150 ? 7 : 2)) {
                    int value = random.nextInt();
                    assertThat(builder.putIfAbsent(key, value))
                            .isEqualTo(model.putIfAbsent(key, value));
                } else if (!model.isEmpty() && op < 9) {
                    Key live = new ArrayList<>(model.keySet()).get(random.nextInt(model.size()));
                    assertThat(builder.remove(live)).isEqualTo(model.remove(live));
                } else {
                    assertThat(builder.remove(key)).isEqualTo(model.remove(key));
                }
                assertThat(builder.size()).isEqualTo(model.size());
            }
            versions.add(builder.build());
            models.add(model);
            assertSameEntries(versions.get(v + 1), model);
            if (v % 50 == 49) {
                for (int i = 0; i < versions.size(); i++) {
                    assertSameEntries(versions.get(i), models.get(i));
                }
            }
        }
        assertThat(models.get(150).size()).isGreaterThan(5000);
        assertThat(models.get(250).size()).isLessThan(500);
    }

    @Test
    void refusesNullsAndReuse() {
        SharedHashMap.Builder<String, Integer> b =
                SharedHashMap.<String, Integer>empty().toBuilder();
        assertThatThrownBy(() -> b.put(null, 1))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("key");
        assertThatThrownBy(() -> b.put("a", null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("value");
        b.build();
        assertThatThrownBy(() -> b.put("a", 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("The builder was used to build a map already");
    }

    private static void assertSameEntries(
            SharedHashMap<Key, Integer> map, Map<Key, Integer> model) {
        assertThat(map.size()).isEqualTo(model.size());
        assertThat(asMap(map)).isEqualTo(model);
        model.forEach((k, v) -> assertThat(map.get(k)).isEqualTo(v));
        assertThat(map.containsKey(new Key("absent", 1))).isFalse();
    }

    private static <K, V> Map<K, V> asMap(SharedHashMap<K, V> map) {
        Map<K, V> out = new HashMap<>();
        map.forEach((k, v) -> assertThat(out.put(k, v)).as("key %s listed twice", k).isNull());
        return out;
    }
}
