import { describe, expect, it } from 'vitest';
import { valueForSchema } from '../../../providers/shared/answers/index.js';
import { MAX_SCHEMA_VALUES } from '../../../providers/shared/answers/schema-value.js';

describe('valueForSchema', () => {
  it.each([
    ['const wins', { type: 'string', const: 'fixed', enum: ['a'] }, 'fixed'],
    ['the first enum value', { type: 'string', enum: ['celsius', 'fahrenheit'] }, 'celsius'],
    ['an enum without a type', { enum: [3, 4] }, 3],
    ['default', { type: 'integer', default: 42 }, 42],
    ['the first example', { type: 'string', examples: ['Boston, MA'] }, 'Boston, MA'],
    ['a string', { type: 'string' }, 'example value'],
    ['a string padded to minLength', { type: 'string', minLength: 20 }, 'example valuexxxxxxx'],
    ['a string cut to maxLength', { type: 'string', maxLength: 4 }, 'exam'],
    ['a string matching a pattern', { type: 'string', pattern: '^[0-9]+$' }, '0'],
    ['a date-time', { type: 'string', format: 'date-time' }, '2026-01-01T00:00:00Z'],
    ['an email', { type: 'string', format: 'email' }, 'user@example.com'],
    ['a uuid', { type: 'string', format: 'uuid' }, '00000000-0000-4000-8000-000000000000'],
    ['an integer', { type: 'integer' }, 1],
    ['an integer at its minimum', { type: 'integer', minimum: 10, maximum: 20 }, 10],
    ['an integer under an exclusive maximum', { type: 'integer', exclusiveMaximum: 0 }, -1],
    ['an integer above an exclusive minimum', { type: 'integer', exclusiveMinimum: 5 }, 6],
    ['an integer on multipleOf', { type: 'integer', minimum: 7, multipleOf: 5 }, 10],
    ['a number', { type: 'number' }, 1.5],
    ['a number inside a tight range', { type: 'number', minimum: 0.1, maximum: 0.2 }, 0.2],
    ['a number between exclusive bounds', { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }, 0.5],
    ['a boolean', { type: 'boolean' }, true],
    ['null', { type: 'null' }, null],
    ['the first non-null type of a list', { type: ['null', 'integer'] }, 1],
    ['the first branch of anyOf', { anyOf: [{ type: 'integer' }, { type: 'string' }] }, 1],
    ['the first branch of oneOf', { oneOf: [{ type: 'boolean' }, { type: 'string' }] }, true],
  ])('gives %s', (_what, schema, value) => {
    expect(valueForSchema(schema)).toEqual(value);
  });

  it('fills every declared property of an object, nested objects and arrays included, and required ones it does not declare', () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        forecast: { type: 'array', items: { type: 'object', properties: { day: { type: 'integer', minimum: 1, maximum: 7 }, rain: { type: 'boolean' } }, required: ['day'] }, minItems: 2 },
        where: { type: 'object', properties: { lat: { type: 'number', minimum: -90, maximum: 90 } } },
      },
      required: ['city', 'note'],
      additionalProperties: { type: 'string' },
    };
    expect(valueForSchema(schema)).toEqual({
      city: 'example city',
      forecast: [{ day: 1, rain: true }, { day: 1, rain: true }],
      where: { lat: 1.5 },
      note: 'example note',
    });
  });

  it('makes the items of an array differ by position (uniqueItems)', () => {
    expect(valueForSchema({ type: 'array', items: { type: 'string' }, minItems: 3, uniqueItems: true }, 'tag')).toEqual(['example tag', 'example tag 2', 'example tag 3']);
    expect(valueForSchema({ type: 'array', items: { type: 'integer' }, minItems: 2 })).toEqual([1, 2]);
    expect(valueForSchema({ type: 'array', items: { enum: ['a', 'b'] }, minItems: 2 })).toEqual(['a', 'b']);
    expect(valueForSchema({ type: 'array', items: { type: 'string' }, maxItems: 0 })).toEqual([]);
  });

  it('merges allOf and follows $ref into $defs, the way zod emits them', () => {
    const schema = {
      $defs: { Money: { type: 'object', properties: { amount: { type: 'number', minimum: 0 }, currency: { enum: ['EUR', 'USD'] } }, required: ['amount', 'currency'] } },
      allOf: [{ type: 'object', properties: { orderId: { type: 'string', pattern: '^[A-Z]-[0-9]+$' } } }, { properties: { total: { $ref: '#/$defs/Money' } } }],
    };
    expect(valueForSchema(schema)).toEqual({ orderId: 'example orderId', total: { amount: 1.5, currency: 'EUR' } });
  });

  it('ends a recursive schema at depth 8 with {}', () => {
    const schema = { $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } }, $ref: '#/$defs/Node' };
    let value = valueForSchema(schema) as { child?: unknown };
    let depth = 0;
    while (value.child) {
      value = value.child as { child?: unknown };
      depth++;
    }
    expect(depth).toBe(8);
  });

  it('stays bounded on a hostile schema: a billion items, unions nested 100,000 deep', () => {
    const huge = valueForSchema({ type: 'array', minItems: 1e9, items: { type: 'array', minItems: 1e9, items: { type: 'integer' } } }) as unknown[][];
    expect(huge.length).toBeLessThanOrEqual(MAX_SCHEMA_VALUES);
    expect(huge.flat().filter((v) => v !== null).length).toBeLessThanOrEqual(MAX_SCHEMA_VALUES);
    let union: Record<string, unknown> = { type: 'integer' };
    for (let i = 0; i < 100_000; i++) union = { anyOf: [union] };
    expect(valueForSchema(union)).toBe('example value');
    // A few nested unions are still followed to their type.
    expect(valueForSchema({ anyOf: [{ anyOf: [{ type: 'integer' }] }] })).toBe(1);
  });
});
