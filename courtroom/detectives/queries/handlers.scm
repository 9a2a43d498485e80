; Every except clause, at any depth.
(except_clause) @handler
