; Every import statement, at any depth (an import inside a function loads a module too).
(import_statement) @import
(import_from_statement) @import.from
