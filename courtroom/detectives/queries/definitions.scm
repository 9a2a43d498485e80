; Every function and class definition, at any depth (methods and nested ones included).
(function_definition) @function
(class_definition) @class
