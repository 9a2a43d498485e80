; Method calls: receiver.method(args) -- add_node, with_structured_output, bind_tools ...
(call
  function: (attribute
    object: (_) @call.object
    attribute: (identifier) @call.method)
  arguments: (argument_list) @call.args) @call.method_call

; Plain calls: name(args) -- StateGraph(...), eval(...), open(...)
(call
  function: (identifier) @call.name
  arguments: (argument_list) @call.args) @call.plain
