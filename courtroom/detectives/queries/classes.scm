; Class definitions with their base-class list (pydantic BaseModel, TypedDict, ...).
(class_definition
  name: (identifier) @class.name
  superclasses: (argument_list)? @class.bases
  body: (block) @class.body) @class
