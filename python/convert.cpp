#include "python/convert.h"

#include <algorithm>
#include <sstream>

#include "host/base/errors.h"
#include "host/io/state_file.h"
#include "host/tools/flock_command_line.h"

namespace boids::python {
namespace {

std::string option_of(const std::string& keyword) {
  std::string name = "--" + keyword;
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

bool is_text(const py::handle& value) {
  return py::isinstance<py::str>(value) || py::hasattr(value, "__fspath__");
}

// A number as the command line would spell it: whole numbers in full, others in the shortest
// text that reads back as the same double (Python's repr), so nothing is rounded on the way.
// NumPy's scalars count, as numbers.Integral and numbers.Real; bool does not.
std::string number_text(const std::string& option, const py::handle& value) {
  const py::module_ numbers = py::module_::import("numbers");
  const py::object number = py::reinterpret_borrow<py::object>(value);
  if (!py::isinstance<py::bool_>(value)) {
    if (py::isinstance(number, numbers.attr("Integral"))) return py::str(py::int_(number));
    if (py::isinstance(number, numbers.attr("Real"))) return py::repr(py::float_(number));
  }
  throw InputError(option + ": expected a real number (int or float), got " +
                   py::repr(value).cast<std::string>());
}

bool is_number(const py::handle& value) {
  return py::isinstance(value, py::module_::import("numbers").attr("Number"));
}

// What the command line would take for `keyword`: text as it is, a number, or a sequence of
// numbers joined by commas (a world's W,H, a goal's or the wind's X,Y).
std::string option_text(const std::string& keyword, const py::handle& value) {
  const std::string option = option_of(keyword);
  if (is_text(value)) {
    return py::module_::import("os").attr("fspath")(value).cast<std::string>();
  }
  if (py::isinstance<py::bytes>(value) || py::isinstance<py::bytearray>(value)) {
    throw InputError(option + ": expected a number or text, got " +
                     py::repr(value).cast<std::string>());
  }
  if (py::hasattr(value, "ndim") && py::int_(value.attr("ndim")).cast<int>() == 0) {
    return number_text(option, value.attr("item")());  // a 0-d array is a scalar
  }
  if (!is_number(value) &&
      (py::isinstance<py::sequence>(value) || py::hasattr(value, "__array__"))) {
    const py::list items = py::module_::import("builtins").attr("list")(value);
    std::string text;
    for (const py::handle item : items)
      text += (text.empty() ? "" : ",") + number_text(option, item);
    return text;
  }
  return number_text(option, value);
}

// What rows of numbers given for a keyword should be: in two dimensions and in three.
struct RowShape {
  std::size_t flat, box;           // numbers a row
  const char *flat_row, *box_row;  // "(x, y, radius)", "(x, y, z, radius)"
};

std::string numbers_text(std::size_t n) {
  return n == 2 ? "two" : n == 3 ? "three" : "four";
}

// `keyword=` as rows of numbers, every row as wide as the first, which says the dimensions
// (`dimensions`, 2 or 3).
std::vector<std::vector<double>> number_rows(const py::handle& value, const std::string& keyword,
                                             const RowShape& shape, int& dimensions) {
  if (!py::isinstance<py::sequence>(value) && !py::hasattr(value, "__array__")) {
    throw InputError(keyword + ": expected rows " + shape.flat_row + " or a file's name, got " +
                     py::repr(value).cast<std::string>());
  }
  std::size_t columns = 0;
  std::vector<std::vector<double>> out;
  const py::list rows = py::module_::import("builtins").attr("list")(value);
  for (std::size_t row = 0; row < rows.size(); ++row) {
    const py::handle item = rows[row];
    const bool sequence = py::isinstance<py::sequence>(item) || py::hasattr(item, "__array__");
    const py::list values =
        sequence ? py::list(py::module_::import("builtins").attr("list")(item)) : py::list();
    if (columns == 0) columns = values.size();
    if ((values.size() != shape.flat && values.size() != shape.box) || values.size() != columns) {
      const std::string wanted =
          row == 0 ? numbers_text(shape.flat) + " numbers " + shape.flat_row + " or " +
                         numbers_text(shape.box) + " " + shape.box_row
          : columns == shape.box
              ? numbers_text(shape.box) + " numbers " + shape.box_row + ", as row 0"
              : numbers_text(shape.flat) + " numbers " + shape.flat_row + ", as row 0";
      throw InputError(keyword + ", row " + std::to_string(row) + ": expected " + wanted +
                       ", got " + py::repr(item).cast<std::string>());
    }
    std::vector<double> v(columns);
    for (std::size_t c = 0; c < columns; ++c) {
      number_text(keyword + ", row " + std::to_string(row), values[c]);  // a number, or refused
      v[c] = py::float_(values[c]).cast<double>();
    }
    out.push_back(std::move(v));
  }
  dimensions = columns == shape.box ? 3 : 2;
  return out;
}

// `obstacles=` as rows of (x, y, radius), or (x, y, z, radius) in three dimensions (every row
// alike; `dimensions` says which); a file's name is taken as the command line takes it.
std::vector<Obstacle> obstacle_rows(const py::handle& value, int& dimensions) {
  std::vector<Obstacle> obstacles;
  const RowShape shape{3, 4, "(x, y, radius)", "(x, y, z, radius)"};
  for (const std::vector<double>& v : number_rows(value, "obstacles", shape, dimensions)) {
    obstacles.push_back(v.size() == 4 ? Obstacle{v[0], v[1], v[3], v[2]}
                                      : Obstacle{v[0], v[1], v[2]});
  }
  return obstacles;
}

// `path=` as rows of (x, y), or (x, y, z) in three dimensions.
std::vector<Vec3> path_rows(const py::handle& value, int& dimensions) {
  std::vector<Vec3> path;
  const RowShape shape{2, 3, "(x, y)", "(x, y, z)"};
  for (const std::vector<double>& v : number_rows(value, "path", shape, dimensions)) {
    path.push_back({v[0], v[1], v.size() == 3 ? v[2] : 0.0});
  }
  return path;
}

// NumPy's kinds of real numbers: signed and unsigned integers, floats.
bool is_real_kind(char kind) {
  return kind == 'i' || kind == 'u' || kind == 'f';
}

void check_keyword(const std::string& keyword) {
  const std::vector<std::string> known = flock_keywords();
  if (std::find(known.begin(), known.end(), keyword) != known.end()) return;
  std::string list;
  for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
  throw py::type_error("unexpected keyword argument '" + keyword + "'; the flock's are " + list);
}

}  // namespace

std::vector<std::string> flock_keywords() {
  std::vector<std::string> keywords;
  for (const ParamSpec& row : param_table()) keywords.push_back(row.keyword());
  return keywords;
}

GivenOptions given_options(const py::dict& keywords) {
  GivenOptions given;
  for (const auto& [key, value] : keywords) {
    const std::string keyword = py::str(key);
    check_keyword(keyword);
    if (value.is_none()) {
      given.cleared.insert(keyword);
    } else if (keyword == "obstacles" && !is_text(value)) {
      given.obstacles = obstacle_rows(value, given.obstacle_dimensions);
    } else if (keyword == "path" && !is_text(value)) {
      given.path = path_rows(value, given.path_dimensions);
    } else {
      given.texts[keyword] = option_text(keyword, value);
    }
  }
  return given;
}

GivenOptions merged(GivenOptions given, const GivenOptions& changes) {
  const auto drop = [&given](const std::string& keyword) {
    given.texts.erase(keyword);
    if (keyword == "obstacles") given.obstacles.reset();
    if (keyword == "path") given.path.reset();
  };
  for (const std::string& keyword : changes.cleared) drop(keyword);
  for (const auto& [keyword, text] : changes.texts) {
    drop(keyword);
    given.texts[keyword] = text;
  }
  if (changes.obstacles) {
    drop("obstacles");
    given.obstacles = changes.obstacles;
    given.obstacle_dimensions = changes.obstacle_dimensions;
  }
  if (changes.path) {
    drop("path");
    given.path = changes.path;
    given.path_dimensions = changes.path_dimensions;
  }
  return given;
}

FlockOptions parse_flock_options(const GivenOptions& given) {
  FlockOptions options;
  tools::OptionParser parser("");
  tools::add_flock_options(parser, options);
  std::vector<std::string> args;
  for (const auto& [keyword, text] : given.texts) args.push_back(option_of(keyword) + "=" + text);
  parser.parse(args);
  options.obstacles = given.obstacles;
  options.obstacle_dimensions = given.obstacle_dimensions;
  options.path = given.path;
  options.path_dimensions = given.path_dimensions;
  return options;
}

py::object to_python(const nlohmann::ordered_json& j) {
  switch (j.type()) {
    case nlohmann::ordered_json::value_t::null:
      return py::none();
    case nlohmann::ordered_json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case nlohmann::ordered_json::value_t::number_integer:
      return py::int_(j.get<std::int64_t>());
    case nlohmann::ordered_json::value_t::number_unsigned:
      return py::int_(j.get<std::uint64_t>());
    case nlohmann::ordered_json::value_t::number_float:
      return py::float_(j.get<double>());
    case nlohmann::ordered_json::value_t::string:
      return py::str(j.get<std::string>());
    case nlohmann::ordered_json::value_t::array: {
      py::list list;
      for (const auto& item : j) list.append(to_python(item));
      return std::move(list);
    }
    case nlohmann::ordered_json::value_t::object: {
      py::dict dict;
      for (const auto& [key, item] : j.items()) dict[py::str(key)] = to_python(item);
      return std::move(dict);
    }
    default:
      break;
  }
  throw RuntimeError("a report holds a value Python cannot take");
}

FlockState state_of_array(const py::object& array, const World& world, const std::string& what,
                          int dimensions) {
  const std::string shape_wanted =
      dimensions == 3 ? "(N, 6): x, y, z, vx, vy, vz" : "(N, 4): x, y, vx, vy";
  // Real numbers only: NumPy would cast complex numbers (dropping their imaginary parts),
  // booleans and numeric strings to float64 without a word.
  const py::array given = py::array::ensure(array);
  if (!given || !is_real_kind(given.dtype().kind())) {
    const std::string got =
        given ? "an array of " + py::str(given.dtype()).cast<std::string>() : "no array";
    throw InputError(what + ": expected an array of numbers of shape " + shape_wanted + ", got " +
                     got + " (real numbers only: ints or floats)");
  }
  py::array_t<double, py::array::c_style | py::array::forcecast> rows;
  try {
    rows = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(given);
  } catch (const py::error_already_set&) {
    rows = {};
  }
  if (!rows) {
    throw InputError(what + ": expected an array of numbers of shape " + shape_wanted);
  }
  std::ostringstream shape;
  shape << "(";
  for (py::ssize_t d = 0; d < rows.ndim(); ++d) shape << (d ? ", " : "") << rows.shape(d);
  shape << (rows.ndim() == 1 ? ",)" : ")");
  const py::ssize_t columns = 2 * dimensions;
  if (rows.ndim() == 2 && rows.shape(1) == 10 - columns) {  // the other dimension's rows
    throw InputError(what + ": its shape " + shape.str() + " holds boids in " +
                     (dimensions == 3 ? "two dimensions" : "three dimensions") +
                     "; this flock flies in " + std::to_string(dimensions) + ": expected " +
                     shape_wanted + (dimensions == 3 ? "" : " (dimensions=3 takes (N, 6))"));
  }
  if (rows.ndim() != 2 || rows.shape(1) != columns) {
    throw InputError(what + ": its shape is " + shape.str() + "; expected " + shape_wanted);
  }
  const auto count = static_cast<std::uint64_t>(rows.shape(0));
  py::gil_scoped_release release;
  return state_from_rows(rows.data(), count, world, what, dimensions);
}

}  // namespace boids::python
