import unittest

from rst2.check import check


class CheckTest(unittest.TestCase):
    def test_correct_document_has_no_messages(self):
        self.assertEqual(check("Title\n=====\n\nSame\n----\n\nSame\n----\n\nText with *emphasis*.\n"), [])

    def test_parse_and_transform_messages(self):
        src = "Title\n=====\n\nUnknown_ ref.\n\n.. foo:: bar\n\n* a\nb\n"
        items = check(src)
        by_message = {item["message"]: item for item in items}
        self.assertEqual(by_message['Unknown directive type "foo".'],
                         {"message": 'Unknown directive type "foo".', "type": "error", "line": 6, "context": ".. foo:: bar"})
        unknown = by_message['Unknown target name: "unknown".']
        self.assertEqual((unknown["type"], unknown["line"], unknown["context"]), ("error", 4, "Unknown_ ref."))
        bullet = [i for i in items if i["message"].startswith("Bullet list ends")][0]
        self.assertEqual((bullet["type"], bullet["line"]), ("warning", 9))

    def test_multiline_context_joined_by_newline(self):
        items = check(".. raw:: html\n   :file: /etc/passwd\n")
        self.assertEqual(items[0]["context"], ".. raw:: html\n   :file: /etc/passwd")
        self.assertEqual(items[0]["type"], "warning")

    def test_types_are_lowercase_names(self):
        src = "Title\n===\n\n.. foo::\n\n`broken\n"
        for item in check(src):
            self.assertIn(item["type"], ("warning", "error", "severe"))
            self.assertTrue(item["line"] is None or isinstance(item["line"], int))


if __name__ == "__main__":
    unittest.main()
