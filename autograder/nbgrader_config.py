"""nbgrader settings of the course, shared by the build and by grading.

Loaded by the course directory that ``autograder.grade`` and ``autograder.build`` create, so an
instructor can also point a hand-made nbgrader course at it with
``c.NbGrader.config_file`` / ``load_subconfig``.
"""

c = get_config()  # noqa: F821 (provided by traitlets when nbgrader loads this file)

# Learners see this stub where a solution was; the checks recognise it and say "not implemented yet".
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# A cell that runs longer than this is interrupted and scores 0; the rest of the notebook still runs.
c.Execute.timeout = 30
c.Execute.interrupt_on_timeout = True

# A deleted or damaged grade cell comes back from the gradebook instead of vanishing.
c.OverwriteCells.add_missing_cells = True

# Feedback: learners see their results and the checks' messages, never the hidden tests (nbgrader #917).
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "autograder.feedback.HideHiddenTests",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]
