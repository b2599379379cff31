// Every value weft exports (functions, classes, constants) documents itself with an @example in
// its JSDoc, which typedoc renders in the API site (`npm run docs`). Types are exempt.
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const entries = ['src/index.ts', 'src/defaultSnapshot.ts'].map((f) => fileURLToPath(new URL(`../${f}`, import.meta.url)))

/** Exported values of the entry files, with whether their declaration's JSDoc has an @example. */
function exportedValues(): { name: string; file: string; hasExample: boolean }[] {
  const program = ts.createProgram(entries, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true })
  const checker = program.getTypeChecker()
  const found: { name: string; file: string; hasExample: boolean }[] = []
  for (const entry of entries) {
    const source = program.getSourceFile(entry)!
    const module = checker.getSymbolAtLocation(source)!
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      if (!(symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Class | ts.SymbolFlags.Variable))) continue
      const declaration = symbol.declarations?.[0]
      if (!declaration) continue
      const tags = symbol.getJsDocTags(checker)
      found.push({ name: exported.name, file: declaration.getSourceFile().fileName.replace(/^.*\/src\//, 'src/'), hasExample: tags.some((t) => t.name === 'example') })
    }
  }
  return found
}

describe('API documentation', () => {
  it('gives every exported function, class and constant an @example', () => {
    const values = exportedValues()
    expect(values.length).toBeGreaterThan(20)
    expect(values.filter((v) => !v.hasExample).map((v) => `${v.name} (${v.file})`)).toEqual([])
  })
})
