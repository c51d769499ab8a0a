package dev.seqgen.boot.autoconfigure;

import dev.seqgen.Setting;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.Conventions;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** The {@code seqgen.*} properties of the environment that bind to nothing, each with the nearest known name. */
final class UnknownProperties {

    private static final String PREFIX = "seqgen";

    private UnknownProperties() {
    }

    /** The unknown names, each as "{@code name} (did you mean {@code known}?)", in the order of the sources. */
    static List<String> find(Environment environment) {
        Set<String> unknown = new LinkedHashSet<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (source instanceof IterableConfigurationPropertySource iterable) {
                boolean variables = source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource;
                iterable.stream().filter(name -> name.getNumberOfElements() > 0
                        && name.getElement(0, Form.UNIFORM).equals(PREFIX))
                        .filter(name -> !known(name) && !(variables && knownVariable(name)))
                        .forEach(name -> unknown.add(name.toString()));
            }
        }
        return unknown.stream().map(name -> name + " (did you mean " + nearest(name) + "?)").toList();
    }

    /** Whether a {@code seqgen.*} name binds to a property of {@link SeqgenProperties}. */
    static boolean known(ConfigurationPropertyName name) {
        int size = name.getNumberOfElements();
        if (size < 2) {
            return false;
        }
        String first = name.getElement(1, Form.DASHED);
        if (first.equals("defaults") || first.equals("sequences")) {
            int from = first.equals("defaults") ? 2 : 3; // after the sequence's name
            return size > from && Setting.find(join(name, from, Form.DASHED, ".")).isPresent();
        }
        String path = Conventions.attributeNameToPropertyName(join(name, 1, Form.DASHED, "."));
        BeanWrapper properties = PropertyAccessorFactory.forBeanPropertyAccess(new SeqgenProperties());
        try {
            return properties.isWritableProperty(path) || properties.isReadableProperty(path);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Whether an environment variable's name binds, compared as Spring reads it; any split of a sequence's name. */
    static boolean knownVariable(ConfigurationPropertyName name) {
        int size = name.getNumberOfElements();
        if (size < 2) {
            return false;
        }
        if (name.getElement(1, Form.UNIFORM).equals("sequences")) {
            return IntStream.range(3, size).mapToObj(from -> squashed(join(name, from, Form.UNIFORM, "")))
                    .anyMatch(key -> Arrays.stream(Setting.values()).anyMatch(s -> squashed(s.key()).equals(key)));
        }
        String written = squashed(join(name, 1, Form.UNIFORM, ""));
        return knownNames().stream().filter(known -> !known.startsWith("seqgen.sequences."))
                .anyMatch(known -> squashed(known.substring(PREFIX.length() + 1)).equals(written));
    }

    private static String join(ConfigurationPropertyName name, int from, Form form, String separator) {
        return IntStream.range(from, name.getNumberOfElements()).mapToObj(i -> name.getElement(i, form))
                .collect(Collectors.joining(separator));
    }

    private static String squashed(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }

    /** Every name {@code seqgen.*} knows, with {@code <name>} for a sequence's name. */
    private static List<String> knownNames() {
        List<String> names = new ArrayList<>();
        for (Setting setting : Setting.values()) {
            names.add("seqgen.defaults." + setting.key());
            names.add("seqgen.sequences.<name>." + setting.key());
        }
        addBeanProperties(names, "seqgen", new SeqgenProperties());
        return names;
    }

    private static void addBeanProperties(List<String> names, String prefix, Object bean) {
        BeanWrapper wrapper = PropertyAccessorFactory.forBeanPropertyAccess(bean);
        for (java.beans.PropertyDescriptor property : wrapper.getPropertyDescriptors()) {
            String name = property.getName();
            if (name.equals("class") || name.equals("defaults") || name.equals("sequences")) {
                continue;
            }
            Object value = wrapper.getPropertyValue(name);
            String dashed = prefix + "." + DataObjectPropertyName.toDashedForm(name);
            if (value != null && value.getClass().getName().startsWith(SeqgenProperties.class.getName())
                    && !value.getClass().isEnum()) {
                addBeanProperties(names, dashed, value);
            } else {
                names.add(dashed);
            }
        }
    }

    private static String nearest(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        // A sequence's name is free text: compare with it stood in by <name>.
        String[] parts = lower.split("\\.");
        String generic = parts.length > 3 ? parts[0] + "." + parts[1] + ".<name>."
                + Arrays.stream(parts).skip(3).collect(Collectors.joining(".")) : lower;
        return knownNames().stream()
                .min(Comparator.comparingInt((String known) -> Math.min(distance(lower, known),
                        distance(generic, known))))
                .map(known -> parts.length > 3 && known.contains("<name>") ? known.replace("<name>", parts[2]) : known)
                .orElseThrow();
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        Arrays.setAll(previous, j -> j);
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
