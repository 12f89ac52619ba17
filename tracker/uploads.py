"""No form of the tracker takes a file. Django caps urlencoded bodies and the
non-file fields of a multipart one (DATA_UPLOAD_MAX_MEMORY_SIZE) but streams
file parts to disk whatever their size; this upload handler, the only one
installed, refuses a multipart body over the cap before it is read and any
file part at all (a 400, as Django answers every RequestDataTooBig)."""

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.files.uploadhandler import FileUploadHandler


class RefuseFiles(FileUploadHandler):
    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        if content_length and content_length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            raise RequestDataTooBig("Request body exceeded DATA_UPLOAD_MAX_MEMORY_SIZE.")

    def new_file(self, *args, **kwargs):
        raise RequestDataTooBig("This site takes no files.")

    def receive_data_chunk(self, raw_data, start):
        raise RequestDataTooBig("This site takes no files.")

    def file_complete(self, file_size):
        return None
