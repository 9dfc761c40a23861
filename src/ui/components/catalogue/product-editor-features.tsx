import { Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FeatureOccurrence } from '../../catalogue-api.js';
import { useLanguageName } from './language-picker.js';
import { valueOf, withValue } from './product-editor-model.js';

/** Below this the value columns would squeeze into slivers: the table scrolls sideways instead. */
const TABLE_MIN_WIDTH = 640;

/**
 * The features as a table: ftidref (an ECLASS IRDI such as 0173-1#02-AAF040#004 as well), the
 * definition's name, the unit and a value column per language. A cell edits the first value of its
 * language; further values of that language and an occurrence's details stay as they are.
 */
export function ProductFeatures({
  features,
  languages,
  errors,
  readOnly,
  onChange,
}: {
  features: FeatureOccurrence[];
  languages: string[];
  errors: Record<string, string>;
  readOnly: boolean;
  onChange: (features: FeatureOccurrence[]) => void;
}) {
  const { t, i18n } = useTranslation();
  const name = useLanguageName();
  const set = (index: number, feature: FeatureOccurrence) =>
    onChange(features.map((f, i) => (i === index ? feature : f)));
  const definitionName = (f: FeatureOccurrence) => {
    const lang = i18n.language.startsWith('de') ? 'deu' : 'eng';
    return (f.names?.find((n) => n.lang === lang) ?? f.names?.[0])?.value ?? '';
  };
  return (
    <Stack gap="xs">
      <Text fw={600}>{t('editor.features')}</Text>
      {features.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('editor.noFeatures')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH} type="native">
          <Table aria-label={t('editor.features')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('editor.ftidref')}</Table.Th>
                <Table.Th>{t('editor.unit')}</Table.Th>
                {languages.map((lang) => (
                  <Table.Th key={lang}>{name(lang)}</Table.Th>
                ))}
                {!readOnly && <Table.Th>{t('editor.actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {features.map((feature, index) => (
                <Table.Tr key={index} data-testid={`feature-${index}`}>
                  <Table.Td miw={200}>
                    <TextInput
                      aria-label={t('editor.ftidrefOf', { index: index + 1 })}
                      value={feature.ftidref}
                      readOnly={readOnly}
                      error={errors[`feature.${index}.ftidref`]}
                      description={definitionName(feature) || undefined}
                      onChange={(event) => set(index, { ...feature, ftidref: event.currentTarget.value })}
                    />
                  </Table.Td>
                  <Table.Td miw={90}>
                    <TextInput
                      aria-label={t('editor.unitOf', { ftidref: feature.ftidref })}
                      value={feature.funit ?? ''}
                      readOnly={readOnly}
                      error={errors[`feature.${index}.funit`]}
                      onChange={(event) =>
                        set(index, { ...feature, funit: event.currentTarget.value || null })
                      }
                    />
                  </Table.Td>
                  {languages.map((lang) => (
                    <Table.Td key={lang} miw={140}>
                      <TextInput
                        aria-label={t('editor.valueOf', { ftidref: feature.ftidref, language: name(lang) })}
                        value={valueOf(feature, lang)}
                        readOnly={readOnly}
                        error={errors[`feature.${index}.${lang}`]}
                        onChange={(event) => set(index, withValue(feature, lang, event.currentTarget.value))}
                      />
                    </Table.Td>
                  ))}
                  {!readOnly && (
                    <Table.Td>
                      <Button
                        variant="default"
                        size="compact-sm"
                        aria-label={t('editor.removeFeature', { ftidref: feature.ftidref })}
                        onClick={() => onChange(features.filter((_, i) => i !== index))}
                      >
                        ✕
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {!readOnly && (
        <Group>
          <Button
            variant="default"
            size="compact-sm"
            onClick={() => onChange([...features, { ftidref: '', funit: null, values: [], details: null }])}
          >
            {t('editor.addFeature')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
