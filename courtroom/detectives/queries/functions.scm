; Function definitions (routers, chief justice, remand lookups).
(function_definition
  name: (identifier) @function.name
  parameters: (parameters) @function.params
  body: (block) @function.body) @function
