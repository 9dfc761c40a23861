/**
 * Imported first by main.tsx: a module's imports all run before its own code, so the opening's
 * request leaves from here, before the rest of the bundle (React DOM, Mantine) is evaluated.
 */
import { startOpening } from './opening-requests.js';

startOpening();
