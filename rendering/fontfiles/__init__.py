"""Font files kept with the renderer (README.md here lists them; OFL.txt is their licence)."""
