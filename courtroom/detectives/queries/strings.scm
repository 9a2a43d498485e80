; Assignments of string literals anywhere (prompt texts and their variable names).
(assignment
  left: (_) @prompt.target
  right: [(string) (concatenated_string) (parenthesized_expression (string)) (parenthesized_expression (concatenated_string))] @prompt.value)

; String values in dict literals keyed by a string (PROMPTS = {"prosecutor": "..."}), and
; nested persona configurations ({"Prosecutor": {"philosophy": "...", ...}}).
(pair
  key: (string) @prompt.key
  value: [(string) (concatenated_string) (parenthesized_expression (concatenated_string))
          (dictionary)] @prompt.value)

; Strings a function returns (def get_system_prompt(self): return """You are ...""").
(return_statement
  [(string) (concatenated_string) (parenthesized_expression)] @prompt.returned)
