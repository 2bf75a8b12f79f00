"""Feedback that never shows hidden test source (nbgrader issue #917).

nbgrader's feedback renders the autograded notebook, where the hidden tests were restored from the
gradebook to be run. This preprocessor removes them again and cuts every traceback of a test cell
down to its last line, the check's message, because a traceback quotes the failing source line.
"""

from nbgrader.preprocessors import ClearHiddenTests
from nbgrader.utils import is_grade

_HIDDEN = "### BEGIN HIDDEN TESTS"


class HideHiddenTests(ClearHiddenTests):
    enforce_metadata = False

    def preprocess_cell(self, cell, resources, cell_index):
        if cell.cell_type != "code" or not is_grade(cell) or cell.metadata.nbgrader.get("solution"):
            return cell, resources
        if _HIDDEN in cell.source:
            self._remove_hidden_test_region(cell)
            cell.source = cell.source.rstrip() + "\n# (hidden tests ran here; their code is not shown)"
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                output.traceback = [f"{output.ename}: {output.evalue}"]
        return cell, resources
