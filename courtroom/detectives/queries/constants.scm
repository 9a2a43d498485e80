; Module-level and class-level string constants, used to resolve node names.
(module
  (expression_statement
    (assignment
      left: (identifier) @const.name
      right: (string) @const.value)))

(class_definition
  name: (identifier) @const.class
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @const.name
        right: (string) @const.value))))
