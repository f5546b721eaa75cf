"""HTML reports: the match report with its step-by-step viewer, and the players report.

- :mod:`reports.html.match`: one match as a self-contained page (``twentynine report match``);
- :mod:`reports.html.viewer`: the viewer's steps, each as every seat could see it;
- :mod:`reports.html.players`: statistics with intervals (``twentynine report players``);
- :mod:`reports.html.annotations`: the warehouse's ``annotations``, read-only;
- :mod:`reports.html.render`: the jinja2 environment, JSON safe in a page, plotly.js.

Templates (``templates/``) hold loops and ifs over the typed contexts built here, no logic.
The reports are handed matches and open warehouses; they read no file themselves.
"""
