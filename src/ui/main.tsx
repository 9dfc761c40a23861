// First: the opening's request (start-opening.ts; the build runs it before this bundle, too).
import './start-opening.js';
import '@mantine/core/styles.css';
import { createTheme, MantineProvider, type CSSVariablesResolver } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { seedFirstScreen } from './first-screen.js';
import './i18n.js';

// Shade 8: white text on the primary colour meets WCAG AA contrast (shade 6 does not: 4.3:1).
const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'sm',
  fontSmoothing: true,
});
// Secondary text (descriptions, placeholders) one shade darker than Mantine's default: 4.5:1 contrast.
const resolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-placeholder': 'var(--mantine-color-dark-1)',
  },
});

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

const root = createRoot(document.getElementById('root')!);
// The first screen in one render, from the opening's answer (first-screen.ts).
void seedFirstScreen(queryClient).then(() =>
  root.render(
    <StrictMode>
      <MantineProvider theme={theme} defaultColorScheme="auto" cssVariablesResolver={resolver}>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  ),
);
