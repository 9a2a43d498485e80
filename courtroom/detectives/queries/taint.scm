; Every function definition and every call: the taint engine's roots and call index.
(function_definition) @function
(call) @call
