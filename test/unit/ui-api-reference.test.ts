import { describe, expect, it } from 'vitest';
import { apiReferenceUrl } from '../../src/ui/api-reference.js';

const running = (host: string, port = 9000) => ({ enabled: true, running: true, host, port });

describe('where Help › API reference goes (src/ui/api-reference.ts)', () => {
  it('is the reference page where the REST server runs, nothing while it does not', () => {
    expect(apiReferenceUrl(running('127.0.0.1'), 'localhost')).toBe('http://127.0.0.1:9000/api/docs');
    expect(apiReferenceUrl(running('::1'), 'localhost')).toBe('http://[::1]:9000/api/docs');
    expect(apiReferenceUrl({ ...running('127.0.0.1'), running: false }, 'localhost')).toBeUndefined();
    expect(apiReferenceUrl(undefined, 'localhost')).toBeUndefined();
  });

  it('uses the name the window was opened with when the server listens on every interface', () => {
    expect(apiReferenceUrl(running('0.0.0.0'), 'pim.example.org')).toBe(
      'http://pim.example.org:9000/api/docs',
    );
    expect(apiReferenceUrl(running('::'), '[::1]')).toBe('http://[::1]:9000/api/docs');
  });
});
