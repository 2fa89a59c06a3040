import { describe, expect, it } from 'vitest';
import { bareSchema, closedObjectSchema, strictObjectSchema } from './json-schema.js';

const contact = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    name: { type: 'string' },
    address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } }, required: ['city'] },
    tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' } } } },
    contact: { anyOf: [{ type: 'object', properties: { email: { type: 'string' } } }, { type: 'null' }] },
  },
  required: ['name'],
  $defs: { Plan: { type: 'object', properties: { tier: { type: 'string' } } } },
};

describe('JSON Schema normalisation', () => {
  it('makes every object strict the way OpenAI requires: closed, every property required, at every depth', () => {
    const strict = strictObjectSchema(contact) as any;
    expect(strict.$schema).toBeUndefined();
    expect(strict).toMatchObject({ additionalProperties: false, required: ['name', 'address', 'tags', 'contact'] });
    expect(strict.properties.address).toMatchObject({ additionalProperties: false, required: ['city', 'zip'] });
    expect(strict.properties.tags.items).toMatchObject({ additionalProperties: false, required: ['label'] });
    expect(strict.properties.contact.anyOf[0]).toMatchObject({ additionalProperties: false, required: ['email'] });
    expect(strict.properties.contact.anyOf[1]).toEqual({ type: 'null' });
    expect(strict.$defs.Plan).toMatchObject({ additionalProperties: false, required: ['tier'] });
  });

  it('keeps optional properties\' types as they are (no null added), so answers still validate against the original', () => {
    const strict = strictObjectSchema(contact) as any;
    expect(strict.properties.address.properties.zip).toEqual({ type: 'string' });
  });

  it.each([
    ['a zod record (a schema for extra properties)', { type: 'object', properties: { scores: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } } } }],
    ['a zod passthrough object (extra properties of any kind)', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: {} }],
    ['additionalProperties: true', { type: 'object', properties: {}, additionalProperties: true }],
    ['an array at the root', { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } }],
    ['a union at the root', { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'null' }] }],
  ])('has no strict form for %s: closing it would change what it means', (_what, schema) => {
    expect(strictObjectSchema(schema)).toBeUndefined();
  });

  it('never changes the schema it was given', () => {
    const before = JSON.stringify(contact);
    strictObjectSchema(contact);
    closedObjectSchema(contact);
    expect(JSON.stringify(contact)).toBe(before);
  });

  it('closes objects for Anthropic without touching required or an explicit additionalProperties', () => {
    const closed = closedObjectSchema({ type: 'object', properties: { a: { type: 'object', additionalProperties: { type: 'number' } } }, required: [] }) as any;
    expect(closed).toEqual({ type: 'object', properties: { a: { type: 'object', additionalProperties: { type: 'number' } } }, required: [], additionalProperties: false });
  });

  it('drops only the dialect marker from a bare schema', () => {
    expect(bareSchema({ $schema: 'x', type: 'object' })).toEqual({ type: 'object' });
    const plain = { type: 'object' };
    expect(bareSchema(plain)).toBe(plain);
  });
});
