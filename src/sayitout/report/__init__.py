"""Progress reports and exports (HTML, Markdown, CSV, JSON) from the attempt store."""
