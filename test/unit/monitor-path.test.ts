import { describe, expect, it } from 'vitest';
import { isSecretParameter, monitorPath } from '../../src/http/monitor-path.js';

describe('monitorPath', () => {
  it('masks parameters whose name has a part naming a secret, however it is spelt', () => {
    const secret = [
      'token',
      'access_token',
      'Authorization',
      'auth',
      'pw',
      'passwd',
      'Password',
      'token[]',
      'bearer',
      'session',
      'sessionId',
      'apiKey',
      'api_key',
      'x-api-key',
      'client_secret',
      'X-Amz-Signature',
    ];
    for (const name of secret) expect(isSecretParameter(name), name).toBe(true);
  });

  it('leaves ordinary names readable, also those that merely contain a secret word', () => {
    const plain = [
      'q',
      'limit',
      'after',
      'lang',
      'keyword',
      'keywords',
      'passage',
      'tokenizer',
      'supplierPid',
      'all',
    ];
    for (const name of plain) expect(isSecretParameter(name), name).toBe(false);
  });

  it('masks values in the path as written, encoded names and brackets included', () => {
    expect(monitorPath('/api/product?pw=x&token%5B%5D=y&bearer=z&session=s&q=hello&limit=5')).toBe(
      '/api/product?pw=***&token%5B%5D=***&bearer=***&session=***&q=hello&limit=5',
    );
    expect(monitorPath('/api/product?my+token=x')).toBe('/api/product?my+token=***');
    expect(monitorPath('/api/product')).toBe('/api/product');
    expect(monitorPath('/api/product?')).toBe('/api/product');
  });
});
