"""Photo + geometry + solve -> annotated image and reports."""
