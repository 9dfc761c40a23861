import { Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A job's report as label and count, one a line, the counts in the user's language. */
export function CountTable({ rows, testId }: { rows: [string, number][]; testId: string }) {
  const { i18n } = useTranslation();
  return (
    <Table data-testid={testId} withRowBorders={false}>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th scope="row" fw={400}>
              {label}
            </Table.Th>
            <Table.Td ta="right">{value.toLocaleString(i18n.language)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
