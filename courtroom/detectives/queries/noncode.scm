; What code_text blanks: comments, statements that are a string alone (docstrings: the
; code keeps only those whose one named child is the string), and string literals.
(comment) @comment
(expression_statement (string)) @statement
(string) @string
