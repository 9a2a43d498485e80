; Every attribute access (``obj.name``), at any depth.
(attribute) @attribute
