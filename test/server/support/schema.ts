// A small JSON Schema checker for the subset openapi.ts uses ($ref, anyOf, type,
// enum, pattern, minimum/maximum, required, properties, additionalProperties,
// items), so the tests can hold real response bodies against the OpenAPI document.

type Schema = Record<string, unknown>

function resolveRef(document: Schema, ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}`)
  let node: unknown = document
  for (const part of ref.slice(2).split('/')) node = (node as Record<string, unknown>)[part]
  if (!node || typeof node !== 'object') throw new Error(`unresolved $ref ${ref}`)
  return node as Schema
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null
    case 'integer':
      return Number.isInteger(value)
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'string':
      return typeof value === 'string'
    case 'boolean':
      return typeof value === 'boolean'
    case 'array':
      return Array.isArray(value)
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value)
    default:
      throw new Error(`unsupported type ${type}`)
  }
}

const known = new Set([
  '$ref', 'anyOf', 'type', 'enum', 'pattern', 'minimum', 'maximum', 'required', 'properties', 'additionalProperties', 'items', 'description', 'default',
])

/**
 * The problems of `value` against `schema` (resolving `$ref` in `document`); empty when it conforms.
 *
 * @example
 * expect(checkSchema(openApiDocument, { $ref: '#/components/schemas/Quote' }, body)).toEqual([])
 */
export function checkSchema(document: Schema, schema: Schema, value: unknown, path = '$'): string[] {
  for (const key of Object.keys(schema)) if (!known.has(key)) throw new Error(`unsupported schema keyword ${key} at ${path}`)
  if (typeof schema.$ref === 'string') return checkSchema(document, resolveRef(document, schema.$ref), value, path)
  if (Array.isArray(schema.anyOf)) {
    const branches = (schema.anyOf as Schema[]).map((branch) => checkSchema(document, branch, value, path))
    return branches.some((problems) => problems.length === 0) ? [] : [`${path}: matches no anyOf branch (${branches.flat().join('; ')})`]
  }
  const problems: string[] = []
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string]
    if (!types.some((type) => typeMatches(type, value))) return [`${path}: ${JSON.stringify(value)?.slice(0, 80)} is not ${types.join('|')}`]
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) problems.push(`${path}: ${JSON.stringify(value)} not in enum`)
  if (typeof value === 'string' && typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
    problems.push(`${path}: ${JSON.stringify(value.slice(0, 80))} does not match ${schema.pattern}`)
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) problems.push(`${path}: ${value} < ${schema.minimum}`)
    if (typeof schema.maximum === 'number' && value > schema.maximum) problems.push(`${path}: ${value} > ${schema.maximum}`)
  }
  if (Array.isArray(value) && schema.items) value.forEach((item, i) => problems.push(...checkSchema(document, schema.items as Schema, item, `${path}[${i}]`)))
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>
    const properties = (schema.properties ?? {}) as Record<string, Schema>
    for (const name of (schema.required ?? []) as string[]) if (!(name in record)) problems.push(`${path}.${name}: required`)
    for (const [name, item] of Object.entries(record)) {
      if (properties[name]) problems.push(...checkSchema(document, properties[name], item, `${path}.${name}`))
      else if (schema.additionalProperties === false) problems.push(`${path}.${name}: not allowed`)
    }
  }
  return problems
}
